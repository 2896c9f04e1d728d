/**
 * The Collections view: the table as DynamoDB lays it out, a vertical run of dashed boxes in key
 * order, one per partition-key value. Each box is headed by its full key value, item count, size
 * and the RCU to read it whole (eventually and strongly consistent); inside, its first items in
 * sort-key order with their attributes as columns, and a line for the items not drawn.
 *
 * The run is virtualised (@tanstack/react-virtual): only the boxes in sight (plus a few) are in
 * the DOM, and only those are listed and read, so 10,000 collections open like 10. A picker
 * regroups the run by any GSI or LSI: the same items re-collected by the index's partition key,
 * those without its keys absent (a sparse index), each column marked with what the index
 * projects. It follows the WAI-ARIA
 * feed pattern: every box is an article; the run is one Tab stop (a roving tabindex: the box last
 * focused, or the first in sight when that one has scrolled out of the DOM), the focused box's
 * buttons after it, so Tab goes on past the run to what is beside it. ↑/↓ (or Page Up/Down) move
 * between boxes, Home/End go to the first and last, → into the box's rows, Enter opens the box in
 * the Items view, W shows it whole (or its first rows again).
 */
import { useCallback, useEffect, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent, type ReactNode } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { AttributeValue, IndexSummary, KeySchema, TableDescription } from "../../ipc/bindings.gen";
import { attributeText } from "../../shared/attributeValue";
import { formatCount, formatCountOf, formatUnits } from "../../shared/format";
import { matchesShortcut } from "../../app/shortcuts";
import type { Item } from "../../shared/attributeValue";
import { collectionKey } from "../../shared/collectionValue";
import type { CollectionEntry, Collections } from "./useCollections";
import { boxRead, type ActiveRead } from "./activeRead";
import { type ColumnMark } from "./RowGrid";
import { HEADER, UNREAD_FULL_BODY, estimate } from "./boxSize";
import { Box } from "./RunBox";
import { keyAttributes } from "../../shared/keySchema";
import { measureUnlessHidden } from "../../shared/virtualWindow";
import { projectionText } from "../../shared/projection";
import "./CollectionsView.css";

export type CollectionsViewProps = {
  table: TableDescription;
  data: Collections;
  /** Open a box's collection in the Items view (its query, all its pages, editing). */
  onOpen: (partitionValue: AttributeValue) => void;
  /** Regroup the run by an index (`null`: the table). Without it there is no picker. */
  onGroupBy?: (index: string | null) => void;
  /**
   * Bring this box into view and mark it (a click on the map, a Query run). `n` changes on every
   * request; `focus: false` leaves the focus where it is (a Query run from the bar).
   */
  reveal?: { value: AttributeValue; n: number; focus?: boolean } | null;
  /** Rows drawn per box (the Query's Limit). */
  rowsPerBox: number;
  /** Boxes rendered beyond those in sight. Default 3. */
  overscan?: number;
  /** What the query bar last ran: the box a Query read is highlighted, the others faded. */
  activeRead?: ActiveRead | null;
  /**
   * Where the statistics are not free (AWS), the scan that gathers them: drawn under the head,
   * in place of the "not listed" error while nothing is gathered.
   */
  gate?: ReactNode;
  /** Controls drawn first on the view's head line (the table screen's map toggle). */
  tools?: ReactNode;
  /** Drawn under the head line, above the run (the table screen's collection map). */
  map?: ReactNode;
  /** Drawn beside the run, on its right (the table screen's summary of the last read). */
  aside?: ReactNode;
  /** Open one item of a box (Enter on its row); without it, Enter on a row opens the box. */
  onOpenItem?: ((item: Item) => void) | undefined;
  /** Copy the focused row's item (Mod+C on a row). */
  onCopyItem?: ((item: Item) => void) | undefined;
};

/** How long a revealed box is kept in place while the boxes around it are listed, read and measured. */
const REVEAL_HOLD_MS = 30_000;
/** How long a box brought into view (from the map) is marked, to catch the eye. */
export const FLASH_MS = 1600;
/**
 * How much of the box before a revealed box stays in sight above it: the foot of the neighbour
 * (faded when a Query read the revealed one) says the run goes on, one collection after another.
 */
const REVEAL_PEEK_PX = 44;

export function CollectionsView({
  table,
  data,
  onOpen,
  onGroupBy,
  reveal = null,
  rowsPerBox,
  overscan = 3,
  activeRead = null,
  gate = null,
  tools = null,
  map = null,
  aside = null,
  onOpenItem,
  onCopyItem,
}: CollectionsViewProps) {
  const { at, boxes, want, retry, readOn, locate } = data;
  const total = data.total ?? 0;
  // The boxes shown whole (every item, read as it comes into sight), by key. A run of one
  // collection shows it whole from the start: it is the whole table.
  const [wholeKeys, setWholeKeys] = useState<ReadonlySet<string>>(new Set());
  const isWhole = useCallback((key: string) => total === 1 || wholeKeys.has(key), [total, wholeKeys]);
  const showWhole = useCallback((key: string, on: boolean) => {
    setWholeKeys((keys) => {
      const next = new Set(keys);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });
  }, []);
  const scrollRef = useRef<HTMLDivElement>(null);
  const boxRefs = useRef(new Map<number, HTMLElement>());
  const grouping = data.index === null ? null : (table.indexes.find((i) => i.name === data.index) ?? null);
  const keys = grouping?.keys ?? table.keys;
  const simple = keys.sortKey === null;
  const marks = useMemo(() => (grouping === null ? null : columnMarks(table, grouping)), [table, grouping]);

  const boxesRef = useRef(boxes);
  boxesRef.current = boxes;
  const estimateSize = useCallback(
    (i: number) => {
      const entry = at(i);
      return estimate(entry, entry === undefined ? undefined : boxesRef.current.get(entry.key), rowsPerBox, entry !== undefined && isWhole(entry.key));
    },
    [at, rowsPerBox, isWhole],
  );
  // (A position not listed yet is known by its number: no string made for each of them at every layout.)
  const getItemKey = useCallback((i: number) => at(i)?.key ?? i, [at]);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    overscan,
    useFlushSync: false,
    getItemKey,
    measureElement: measureUnlessHidden(() => scrollRef.current),
  });
  const virtual = virtualizer.getVirtualItems();

  // A hidden view (another tab shown) has no size, and the browser drops its scroll position:
  // keep the last one and put it back when the view is shown again, so the run is where it was.
  // While hidden, the run's range is that of an empty window at the top: nothing is listed or
  // read for it (on AWS each box read costs read units), and the boxes in sight are asked for
  // again once the view is shown.
  const savedScroll = useRef(0);
  const [shown, setShown] = useState(true);
  useEffect(() => {
    const el = scrollRef.current;
    if (el === null || typeof ResizeObserver === "undefined") return;
    const onScroll = () => {
      if (el.clientHeight > 0) savedScroll.current = el.scrollTop;
    };
    let wasHidden = el.clientHeight === 0;
    setShown(!wasHidden);
    const observer = new ResizeObserver(() => {
      const hidden = el.clientHeight === 0;
      if (wasHidden && !hidden && el.scrollTop !== savedScroll.current) virtualizer.scrollToOffset(savedScroll.current);
      wasHidden = hidden;
      setShown(!hidden);
    });
    el.addEventListener("scroll", onScroll, { passive: true });
    observer.observe(el);
    return () => {
      el.removeEventListener("scroll", onScroll);
      observer.disconnect();
    };
  }, [virtualizer, total === 0]);

  // List and read the boxes in sight (the overscan too: they are a short scroll away).
  const inSight = virtual.map((v) => v.index);
  const inSightKey = inSight.join(",");
  useEffect(() => {
    const el = scrollRef.current;
    const hidden = typeof ResizeObserver !== "undefined" && el !== null && el.clientHeight === 0;
    if (!hidden) want(inSight);
    // inSightKey stands for inSight's content; `shown` asks again once the view is shown.
  }, [inSightKey, want, shown]);

  // A reveal names a partition-key value: find where it stands in the run (it may not be listed).
  const [revealed, setRevealed] = useState<{ index: number; n: number; focus: boolean } | null>(null);
  // (Once the run is listed: before that there is nothing to scroll, and a reveal asked for as
  // the view opens, from the start screen, would run out of patience before the run exists.)
  const listed = data.total !== null;
  useEffect(() => {
    if (reveal === null || !listed) return;
    let cancelled = false;
    void locate(reveal.value).then((position) => {
      if (!cancelled) setRevealed({ index: position ?? -1, n: reveal.n, focus: reveal.focus ?? true });
    });
    return () => {
      cancelled = true;
    };
  }, [reveal?.n, locate, listed]);
  // A revealed box is held where it was aimed: the boxes before it count at their estimated
  // height until they are listed, drawn, measured and filled by their Query, each of which moves
  // it, on a loaded machine for seconds. So after every render (the virtualizer renders again
  // whenever a measurement changes) and on a timer, the run is aimed again; the box is focused
  // once it is in place; the hold ends when the user scrolls, points or types in the run, or
  // after REVEAL_HOLD_MS.
  const pendingReveal = useRef<{ index: number; until: number; focused: boolean } | null>(null);
  useEffect(() => {
    if (revealed === null || revealed.index < 0) return;
    pendingReveal.current = { index: revealed.index, until: Date.now() + REVEAL_HOLD_MS, focused: !revealed.focus };
    virtualizer.scrollToOffset(revealOffset(revealed.index));
    const el = scrollRef.current;
    if (el === null) return;
    const userMoved = () => {
      pendingReveal.current = null;
    };
    el.addEventListener("wheel", userMoved, { passive: true });
    el.addEventListener("pointerdown", userMoved);
    el.addEventListener("keydown", userMoved);
    // Measurements settle after the last render too: look again a few times on a timer.
    const ticks = setInterval(() => aimAgain(), 200);
    return () => {
      el.removeEventListener("wheel", userMoved);
      el.removeEventListener("pointerdown", userMoved);
      el.removeEventListener("keydown", userMoved);
      clearInterval(ticks);
    };
  }, [revealed]);
  // Where the run is scrolled to reveal box `index`: its top, under a peek of the box before it
  // (within what the run can scroll).
  const revealOffset = (index: number): number => {
    const start = virtualizer.getOffsetForIndex(index, "start")?.[0] ?? 0;
    const max = Math.max(0, virtualizer.getTotalSize() - (scrollRef.current?.clientHeight ?? 0));
    return Math.min(max, Math.max(0, start - (index > 0 ? REVEAL_PEEK_PX : 0)));
  };
  const aimAgain = () => {
    const pending = pendingReveal.current;
    const el = scrollRef.current;
    if (pending === null || el === null) return;
    if (Date.now() > pending.until) {
      pendingReveal.current = null;
      return;
    }
    const target = revealOffset(pending.index);
    const box = boxRefs.current.get(pending.index);
    if (Math.abs(el.scrollTop - target) > 1) {
      virtualizer.scrollToOffset(target);
    } else if (box !== undefined && box.isConnected && !pending.focused) {
      box.focus({ preventScroll: true });
      pending.focused = true;
      // The run is aimed at the box, but the run itself may be out of the window: the map above
      // it can fill the panel the view scrolls in. Bring the run into sight there (its own scroll,
      // just aimed, is left alone), and mark the box for a moment so the eye finds it.
      el.scrollIntoView?.({ block: "nearest", inline: "nearest" });
      const key = at(pending.index)?.key;
      if (key !== undefined) setFlash((f) => ({ key, n: (f?.n ?? 0) + 1 }));
    }
  };
  // The box just brought into view, marked for FLASH_MS.
  const [flash, setFlash] = useState<{ key: string; n: number } | null>(null);
  useEffect(() => {
    if (flash === null) return;
    const timer = setTimeout(() => setFlash(null), FLASH_MS);
    return () => clearTimeout(timer);
  }, [flash]);
  useEffect(aimAgain);

  // The key handler and the box refs are the same functions from render to render, so a scroll
  // (which renders the view again) does not render every box in sight again.
  const latest = useRef({ total, onOpen, onOpenItem, onCopyItem, virtualizer, isWhole, activeRead });
  latest.current = { total, onOpen, onOpenItem, onCopyItem, virtualizer, isWhole, activeRead };
  // The run's one Tab stop, by its place in the run: kept here, not in a box, since the boxes come
  // and go as the run scrolls. Where that box is not drawn, the first box drawn in sight stands in.
  const [current, setCurrent] = useState(0);
  const onFocusBox = useCallback((index: number) => setCurrent(index), []);
  // Where that box has scrolled out of the DOM, the run itself is the Tab stop and hands the focus
  // to the first box in sight. (Not a box standing in: a Tab stop that moved with the scroll drew
  // two boxes again for every box scrolled past, and left the web view ~14 MB larger after a long
  // scroll of Fleet; bench/app/views.md, session 26.)
  const currentDrawn = virtual.some((v) => v.index === current && at(v.index) !== undefined);
  const focusFirstInSight = (event: FocusEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    const offset = virtualizer.scrollOffset ?? 0;
    const first = virtual.find((v) => v.end > offset && at(v.index) !== undefined);
    if (first !== undefined) boxRefs.current.get(first.index)?.focus({ preventScroll: true });
  };
  const registerBox = useCallback((index: number, el: HTMLElement | null) => {
    if (el) boxRefs.current.set(index, el);
    else boxRefs.current.delete(index);
  }, []);
  const onBoxKeyDown = useCallback((event: KeyboardEvent<HTMLElement>, index: number, entry: CollectionEntry) => {
    const { total, onOpen, onOpenItem, onCopyItem, virtualizer, isWhole, activeRead } = latest.current;
    const box = event.currentTarget;
    const rows = () => [...box.querySelectorAll<HTMLElement>('[data-testid="box-row"]')];
    const focusBox = (at: number) => {
      const clamped = Math.max(0, Math.min(total - 1, at));
      virtualizer.scrollToIndex(clamped, { align: "auto" });
      setTimeout(() => boxRefs.current.get(clamped)?.focus({ preventScroll: true }), 30);
    };
    const native = event.nativeEvent;
    if (event.target === box) {
      const moves: Record<string, number> = {
        ArrowDown: index + 1,
        PageDown: index + 1,
        ArrowUp: index - 1,
        PageUp: index - 1,
        Home: 0,
        End: total - 1,
      };
      const target = moves[event.key];
      if (target !== undefined && matchesShortcut("move-box", native)) {
        event.preventDefault();
        focusBox(target);
      } else if (matchesShortcut("enter-box", native)) {
        const first = rows()[0];
        if (first !== undefined) {
          event.preventDefault();
          first.focus();
        }
      } else if (matchesShortcut("open-box", native)) {
        event.preventDefault();
        onOpen(entry.partitionValue);
      } else if (total > 1 && matchesShortcut("whole-box", native)) {
        // (A run of one collection is always whole.)
        event.preventDefault();
        showWhole(entry.key, !isWhole(entry.key));
      }
      return;
    }
    // On one of the box's rows.
    const row = (event.target as HTMLElement).closest<HTMLElement>('[data-testid="box-row"]');
    if (row === null) return;
    const all = rows();
    const at = all.indexOf(row);
    const rowMoves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: all.length - 1 };
    const target = rowMoves[event.key];
    // The row's item: one the active Query returned (by page and place), or one of the box's own.
    const itemOfRow = () => {
      if (row.dataset.page !== undefined) {
        const read = boxRead(activeRead, entry.key);
        return read?.role === "read" ? read.pages[Number(row.dataset.page)]?.items[Number(row.dataset.at)] : undefined;
      }
      const state = boxesRef.current.get(entry.key);
      return state?.status === "ok" ? state.items[Number(row.dataset.row)] : undefined;
    };
    if (target !== undefined && matchesShortcut("move-row", native)) {
      event.preventDefault();
      all[Math.max(0, Math.min(all.length - 1, target))]?.focus();
    } else if (matchesShortcut("leave-box", native)) {
      event.preventDefault();
      box.focus();
    } else if (matchesShortcut("open-row", native)) {
      event.preventDefault();
      const found = itemOfRow();
      if (onOpenItem !== undefined && found !== undefined) onOpenItem(found);
      else onOpen(entry.partitionValue);
    } else if (onCopyItem !== undefined && matchesShortcut("copy-item", native)) {
      const found = itemOfRow();
      if (found !== undefined) {
        event.preventDefault();
        onCopyItem(found);
      }
    }
  }, [showWhole]);

  const loading = inSight.some((i) => {
    const entry = at(i);
    const status = entry === undefined ? undefined : boxes.get(entry.key)?.status;
    return status !== "ok" && status !== "error";
  });
  const totalItems = grouping === null ? table.itemCount : grouping.itemCount;
  const markedKey = reveal === null ? null : collectionKey(reveal.value);

  return (
    <section className="collections-view" aria-label={`Collections of ${table.name}`} data-stale-read={activeRead?.stale ? "true" : undefined}>
      <div className="collections-head">
        {tools}
        {activeRead?.stale && (
          <p className="collections-stale-read" data-testid="collections-stale-read">
            The marked boxes show the previous request: Run the query bar to read the new one.
          </p>
        )}
        {onGroupBy !== undefined && table.indexes.length > 0 && (
          <label className="collections-group-by">
            Grouped by{" "}
            <select
              value={data.index ?? ""}
              onChange={(event) => onGroupBy(event.target.value === "" ? null : event.target.value)}
              data-testid="collections-group-by"
            >
              <option value="">the table · {keyLabel(table.keys)}</option>
              {table.indexes.map((i) => (
                <option key={i.name} value={i.name}>
                  {i.kind === "global" ? "GSI" : "LSI"} {i.name} · {keyLabel(i.keys)}
                </option>
              ))}
            </select>
          </label>
        )}
        <p
          className="collections-summary muted"
          data-testid="collections-summary"
          title="Every box is a collection: one partition-key value, its items in sort-key order. A Query reads one box; a Scan walks them all."
        >
          {data.total === null ? (
            data.listError !== null ? (
              "No collections listed yet."
            ) : (
              "Listing the collections…"
            )
          ) : (
            <>
              {formatCount(total)} {total === 1 ? "collection" : "collections"} in key order of {keys.partitionKey.name}
              {totalItems !== null && <> · {formatCountOf(totalItems, "item")}</>}
              {grouping !== null && <> · in {grouping.name}</>}
            </>
          )}
        </p>
        {data.spent.queries > 0 && (
          // What scrolling has cost: each box is read with a Query of its own (on AWS, billed).
          <p className="collections-spent muted" data-testid="collections-spent" title="Each box is read with a Query of its own, its first rows only.">
            boxes read: {formatCountOf(data.spent.queries, "Query", "Queries")} · {formatUnits(data.spent.units)} RCU
          </p>
        )}
      </div>
      {map}
      {grouping !== null && <IndexNote table={table} index={grouping} />}
      {gate}
      {reveal !== null && revealed !== null && revealed.n === reveal.n && revealed.index < 0 && (
        // A Query (or a click) named a key the run does not hold: said, rather than every box
        // faded with nothing highlighted.
        <p className="collections-not-found" role="status" data-testid="collections-not-found">
          No collection {keys.partitionKey.name} = <span className="run-box-pk-value">{attributeText(reveal.value)}</span>
          {gate !== undefined && gate !== null
            ? " among the collections read so far."
            : `: no item of ${grouping === null ? table.name : grouping.name} has this key, so a Query for it returns nothing.`}
        </p>
      )}
      {data.listError !== null && !(gate !== null && data.listError.code === "NOT_FOUND") && (
        <p className="run-box-error" role="alert" data-testid="collections-list-error">
          The collections could not be listed: {data.listError.message}{" "}
          {/* Nothing listed, nothing in sight: asking for no position lists the first page again. */}
          <button type="button" onClick={() => want([])} data-testid="collections-list-retry">
            Try again
          </button>
        </p>
      )}
      {simple && (
        <p className="collections-simple" data-testid="collections-simple-key">
          {grouping === null
            ? `${table.name} has no sort key: its primary key is ${keys.partitionKey.name} alone, so each key value holds exactly one item and there is no item collection to draw. Each box below is one item.`
            : `${grouping.name} has no sort key: its key is ${keys.partitionKey.name} alone, so each box holds the items that share one ${keys.partitionKey.name}, in no defined order.`}
        </p>
      )}
      {data.total === 0 ? (
        <p className="collections-empty muted" data-testid="collections-empty">
          {grouping === null
            ? `${table.name} has no items yet: no partition-key value, so no collection. Items you put will appear here, one box per ${keys.partitionKey.name}.`
            : `No item of ${table.name} has ${grouping.name}'s keys (${keyLabel(grouping.keys)}), so the index holds nothing yet.`}
        </p>
      ) : data.total === null ? null : (
        <div className="collections-body">
          <div
            ref={scrollRef}
            className="collections-run"
            role="feed"
            aria-label={`Item collections of ${table.name}, by ${keys.partitionKey.name}`}
            aria-busy={loading}
            data-testid="collections-run"
            // (No tabindex at all otherwise: a click between two boxes focuses nothing, as before.)
            tabIndex={currentDrawn ? undefined : 0}
            onFocus={focusFirstInSight}
          >
            <div className="collections-run-inner" style={{ height: virtualizer.getTotalSize() }}>
              {virtual.map((v) => {
                const entry = at(v.index);
                const read = entry === undefined ? null : boxRead(activeRead, entry.key);
                // A box shown whole and the box a Query read draw their rows in the run's scroll.
                const inRun = entry !== undefined && (isWhole(entry.key) || read?.role === "read");
                return (
                  <div
                    key={v.key}
                    data-index={v.index}
                    // What the run counted the slot at before drawing it (tests/e2e check it is its height).
                    data-estimate={estimateSize(v.index)}
                    ref={virtualizer.measureElement}
                    className="collections-slot"
                    // Such a box is placed with `top`: WebKit does not keep its sticky header in the
                    // run's sight inside a transformed slot.
                    style={inRun ? { top: v.start } : { transform: `translateY(${v.start}px)` }}
                  >
                    {entry === undefined ? (
                      <article
                        className="run-box run-box-unlisted"
                        style={{ minHeight: HEADER + UNREAD_FULL_BODY(rowsPerBox) }}
                        aria-posinset={v.index + 1}
                        aria-setsize={total}
                        aria-busy
                        data-testid="collection-run-unlisted"
                      >
                        <p className="run-box-loading muted">Listing collection {formatCount(v.index + 1)}…</p>
                      </article>
                    ) : (
                      <Box
                        entry={entry}
                        whole={isWhole(entry.key)}
                        onShowWhole={total === 1 ? undefined : showWhole}
                        scrollElement={scrollRef.current}
                        boxStart={inRun ? v.start : 0}
                        onReadOn={readOn}
                        index={v.index}
                        total={total}
                        keys={keys}
                        marks={marks}
                        state={boxes.get(entry.key)}
                        marked={markedKey === entry.key}
                        onOpen={onOpen}
                        onRetry={retry}
                        onKeyDown={onBoxKeyDown}
                        rowsPerBox={rowsPerBox}
                        read={read}
                        registerBox={registerBox}
                        tabStop={v.index === current}
                        flash={flash?.key === entry.key}
                        onFocusBox={onFocusBox}
                      />
                    )}
                  </div>
                );
              })}
            </div>
          </div>
          {/* Focusable: the cards scroll when they outgrow the view, and the keyboard scrolls them too. */}
          {aside ? (
            <div className="collections-aside" tabIndex={0} role="region" aria-label="Figures of the last read" data-testid="collections-aside">
              {aside}
            </div>
          ) : null}
        </div>
      )}
    </section>
  );
}

/** "pk (S) + sk (N)": a key schema in a few words. */
function keyLabel(keys: KeySchema): string {
  const part = (k: { name: string; type: string }) => `${k.name} (${k.type})`;
  return keys.sortKey === null ? part(keys.partitionKey) : `${part(keys.partitionKey)} + ${part(keys.sortKey)}`;
}

export type { ColumnMark } from "./RowGrid";

/**
 * The marks of an index's columns: the table's key attributes are in every index entry; the
 * other attributes are marked "projected" only where the index picks them (INCLUDE naming them).
 * (A KEYS_ONLY index's other attributes are its own keys.)
 * An index that projects all attributes holds every attribute: there is nothing to tell apart.
 */
export function columnMarks(table: TableDescription, index: IndexSummary): (name: string) => ColumnMark | null {
  const tableKeys = new Set([table.keys.partitionKey.name, table.keys.sortKey?.name].filter((n): n is string => n !== undefined));
  return (name: string) =>
    tableKeys.has(name)
      ? { label: "table key", title: `${name} is a key of ${table.name}: every index entry carries the table's keys.` }
      : index.projection.type !== "INCLUDE" || !index.projection.attributes.includes(name)
        ? // ALL: every attribute is there; KEYS_ONLY: what is not the table's key is the index's own.
          null
        : { label: "projected", title: `${index.name} projects ${name} (INCLUDE), so it is copied into the index.` };
}

/** What an index holds, above its regrouped run. */
function IndexNote({ table, index }: { table: TableDescription; index: IndexSummary }) {
  const kind = index.kind === "global" ? "global secondary index" : "local secondary index";
  const what = projectionText(index.projection);
  // Every item has the table's own keys: an item is left out of the index only for lacking one
  // of the index's other key attributes (an LSI's sort key, most GSIs' keys).
  const tableKeys = new Set(keyAttributes(table.keys).map((k) => k.name));
  const sparseOn = keyAttributes(index.keys)
    .map((k) => k.name)
    .filter((name) => !tableKeys.has(name));
  return (
    <p className="collections-index-note" data-testid="collections-index-note">
      The same items of {table.name}, re-collected by the {kind} {index.name}: one box per {index.keys.partitionKey.name}
      {index.keys.sortKey !== null && <>, in {index.keys.sortKey.name} order</>}.{" "}
      {sparseOn.length === 0
        ? "Every item has its keys, so every item is in it."
        : `Items without ${sparseOn.join(" or ")} are not in it (a sparse index).`}{" "}
      Projection: {what}.
      {index.kind === "global" && " Its reads are eventually consistent only."}
    </p>
  );
}
