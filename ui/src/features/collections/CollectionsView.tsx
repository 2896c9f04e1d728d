/**
 * The Collections view: the table as DynamoDB lays it out, a vertical run of dashed boxes in key
 * order, one per partition-key value. Each box is headed by its full key value, item count, size
 * and the RCU to read it whole (eventually and strongly consistent); inside, its first items in
 * sort-key order with their attributes as columns, and a line for the items not drawn.
 *
 * The run is virtualised (@tanstack/react-virtual): only the boxes in sight (plus a few) are in
 * the DOM, and only those are read, so 10,000 collections open like 10. It follows the WAI-ARIA
 * feed pattern: every box is an article in the Tab order; ↑/↓ (or Page Up/Down) move between
 * boxes, Home/End go to the first and last, Enter opens the box in the Items view.
 */
import { memo, useCallback, useEffect, useMemo, useRef, type CSSProperties, type KeyboardEvent } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { AttributeValue, KeySchema, TableDescription } from "../../ipc/bindings.gen";
import { errorTitle } from "../../ipc/result";
import { attributeText, byteCountLabel } from "../../shared/attributeValue";
import { formatCount, formatUnits } from "../../shared/format";
import { wholeCollectionReadCost } from "../../shared/readCost";
import { TypedValue } from "../../shared/TypedValue";
import { matchesShortcut } from "../../app/shortcuts";
import type { BoxState, CollectionEntry, Collections, Item } from "./useCollections";
import { boxRead, type ActiveRead, type BoxRead } from "./activeRead";
import { ReadRows } from "./ReadRows";
import { boxColumns } from "./boxColumns";
import "./CollectionsView.css";

export type CollectionsViewProps = {
  table: TableDescription;
  data: Collections;
  /** Open a box's collection in the Items view (its query, all its pages, editing). */
  onOpen: (partitionValue: AttributeValue) => void;
  /** Bring this box into view and mark it (a click on the map). `n` changes on every request. */
  reveal?: { key: string; n: number } | null;
  /** Rows drawn per box (the Query's Limit). */
  rowsPerBox: number;
  /** Boxes rendered beyond those in sight. Default 3. */
  overscan?: number;
  /** What the query bar last ran: the box a Query read is highlighted, the others faded. */
  activeRead?: ActiveRead | null;
};

const HEADER = 40;
const COLUMN_HEADER = 26;
const ROW = 27;
const MORE = 28;
const GAP = 12;

function estimate(entry: CollectionEntry | undefined, state: BoxState | undefined, rowsPerBox: number): number {
  if (entry === undefined) return HEADER + GAP;
  const rows = state?.status === "ok" ? state.items.length : Math.min(entry.itemCount, rowsPerBox);
  const more = entry.itemCount > rows ? MORE : 0;
  return HEADER + COLUMN_HEADER + rows * ROW + more + GAP + 8;
}

/** How long a reveal keeps aiming at its box while the boxes on the way settle. */
const REVEAL_PATIENCE_MS = 8000;

export function CollectionsView({ table, data, onOpen, reveal = null, rowsPerBox, overscan = 3, activeRead = null }: CollectionsViewProps) {
  const { collections, boxes, want, retry, unlisted } = data;
  const scrollRef = useRef<HTMLDivElement>(null);
  const boxRefs = useRef(new Map<number, HTMLElement>());
  const keys = table.keys;
  const simple = keys.sortKey === null;

  const boxesRef = useRef(boxes);
  boxesRef.current = boxes;
  const estimateSize = useCallback(
    (i: number) => {
      const entry = collections[i];
      return estimate(entry, entry === undefined ? undefined : boxesRef.current.get(entry.key), rowsPerBox);
    },
    [collections, rowsPerBox],
  );
  const getItemKey = useCallback((i: number) => collections[i]?.key ?? i, [collections]);
  const virtualizer = useVirtualizer({
    count: collections.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    overscan,
    useFlushSync: false,
    getItemKey,
  });
  const virtual = virtualizer.getVirtualItems();

  // A hidden view (another tab shown) has no size, and the browser drops its scroll position:
  // keep the last one and put it back when the view is shown again, so the run is where it was.
  const savedScroll = useRef(0);
  useEffect(() => {
    const el = scrollRef.current;
    if (el === null || typeof ResizeObserver === "undefined") return;
    const onScroll = () => {
      if (el.clientHeight > 0) savedScroll.current = el.scrollTop;
    };
    let wasHidden = el.clientHeight === 0;
    const observer = new ResizeObserver(() => {
      const hidden = el.clientHeight === 0;
      if (wasHidden && !hidden && el.scrollTop !== savedScroll.current) virtualizer.scrollToOffset(savedScroll.current);
      wasHidden = hidden;
    });
    el.addEventListener("scroll", onScroll, { passive: true });
    observer.observe(el);
    return () => {
      el.removeEventListener("scroll", onScroll);
      observer.disconnect();
    };
  }, [virtualizer, collections.length === 0]);

  // Read the boxes in sight (the overscan too: they are a short scroll away).
  const inSight = virtual.map((v) => collections[v.index]?.key).filter((k): k is string => k !== undefined);
  const inSightKey = inSight.join("\n");
  useEffect(() => {
    want(inSight);
    // inSightKey stands for inSight's content.
  }, [inSightKey, want]);

  const revealed = reveal === null ? null : collections.findIndex((c) => c.key === reveal.key);
  // A reveal stays pending until the box sits where it was aimed: the boxes on the way count at
  // their estimated height until they are drawn, measured and filled by their Query, each of
  // which moves the target. So after every render (the virtualizer renders again whenever a
  // measurement changes) the run is aimed again, until the box is in place and focused, the
  // user scrolls or types, or REVEAL_PATIENCE_MS pass.
  const pendingReveal = useRef<{ index: number; until: number } | null>(null);
  useEffect(() => {
    if (revealed === null || revealed < 0) return;
    pendingReveal.current = { index: revealed, until: Date.now() + REVEAL_PATIENCE_MS };
    virtualizer.scrollToIndex(revealed, { align: "start" });
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
  }, [reveal?.n]);
  const aimAgain = () => {
    const pending = pendingReveal.current;
    const el = scrollRef.current;
    if (pending === null || el === null) return;
    if (Date.now() > pending.until) {
      pendingReveal.current = null;
      return;
    }
    const target = virtualizer.getOffsetForIndex(pending.index, "start")?.[0];
    const box = boxRefs.current.get(pending.index);
    if (target !== undefined && Math.abs(el.scrollTop - target) > 1) {
      virtualizer.scrollToIndex(pending.index, { align: "start" });
    } else if (box !== undefined && box.isConnected) {
      box.focus({ preventScroll: true });
      // In place and focused: the reveal is done once it has stayed so for a moment, which the
      // next look confirms (pending.until is pulled in to that moment).
      pending.until = Math.min(pending.until, Date.now() + 600);
    }
  };
  useEffect(aimAgain);

  const focusBox = (index: number) => {
    const clamped = Math.max(0, Math.min(collections.length - 1, index));
    virtualizer.scrollToIndex(clamped, { align: "auto" });
    setTimeout(() => boxRefs.current.get(clamped)?.focus({ preventScroll: true }), 30);
  };

  const onBoxKeyDown = (event: KeyboardEvent<HTMLElement>, index: number, entry: CollectionEntry) => {
    if (event.target !== event.currentTarget) return;
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      PageDown: index + 1,
      ArrowUp: index - 1,
      PageUp: index - 1,
      Home: 0,
      End: collections.length - 1,
    };
    const target = moves[event.key];
    if (target !== undefined && matchesShortcut("move-box", event.nativeEvent)) {
      event.preventDefault();
      focusBox(target);
    } else if (matchesShortcut("open-box", event.nativeEvent)) {
      event.preventDefault();
      onOpen(entry.partitionValue);
    }
  };

  const loading = inSight.some((k) => boxes.get(k)?.status !== "ok" && boxes.get(k)?.status !== "error");
  const totalItems = collections.reduce((sum, c) => sum + c.itemCount, 0);

  return (
    <section className="collections-view" aria-label={`Collections of ${table.name}`}>
      <p className="collections-summary muted" data-testid="collections-summary">
        {formatCount(collections.length)} {collections.length === 1 ? "collection" : "collections"} in key order of{" "}
        {keys.partitionKey.name} · {formatCount(totalItems)} items
        {unlisted > 0 && (
          <span data-testid="collections-unlisted">
            {" "}
            · {formatCount(unlisted)} smaller {unlisted === 1 ? "collection is" : "collections are"} not listed: the statistics name
            the largest only
          </span>
        )}
      </p>
      {simple && (
        <p className="collections-simple" data-testid="collections-simple-key">
          {table.name} has no sort key: its primary key is {keys.partitionKey.name} alone, so each key value holds exactly one
          item and there is no item collection to draw. Each box below is one item.
        </p>
      )}
      {collections.length === 0 ? (
        <p className="collections-empty muted" data-testid="collections-empty">
          {table.name} has no items yet: no partition-key value, so no collection. Items you put will appear here, one box per{" "}
          {keys.partitionKey.name}.
        </p>
      ) : (
        <div
          ref={scrollRef}
          className="collections-run"
          role="feed"
          aria-label={`Item collections of ${table.name}, by ${keys.partitionKey.name}`}
          aria-busy={loading}
          data-testid="collections-run"
        >
          <div className="collections-run-inner" style={{ height: virtualizer.getTotalSize() }}>
            {virtual.map((v) => {
              const entry = collections[v.index]!;
              return (
                <div
                  key={v.key}
                  data-index={v.index}
                  ref={virtualizer.measureElement}
                  className="collections-slot"
                  style={{ transform: `translateY(${v.start}px)` }}
                >
                  <Box
                    entry={entry}
                    index={v.index}
                    total={collections.length}
                    keys={keys}
                    state={boxes.get(entry.key)}
                    marked={reveal !== null && reveal.key === entry.key}
                    onOpen={onOpen}
                    onRetry={retry}
                    onKeyDown={onBoxKeyDown}
                    rowsPerBox={rowsPerBox}
                    read={boxRead(activeRead, entry.key)}
                    boxRef={(el) => {
                      if (el) boxRefs.current.set(v.index, el);
                      else boxRefs.current.delete(v.index);
                    }}
                  />
                </div>
              );
            })}
          </div>
        </div>
      )}
    </section>
  );
}

type BoxProps = {
  entry: CollectionEntry;
  index: number;
  total: number;
  keys: KeySchema;
  state: BoxState | undefined;
  marked: boolean;
  onOpen: (value: AttributeValue) => void;
  onRetry: (key: string) => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>, index: number, entry: CollectionEntry) => void;
  rowsPerBox: number;
  /** How the active read stands with this box (null: no active read). */
  read?: BoxRead;
  boxRef: (el: HTMLElement | null) => void;
};

/** One collection; memoised so a box that arrives re-renders only itself. */
const Box = memo(function Box({ entry, index, total, keys, state, marked, onOpen, onRetry, onKeyDown, rowsPerBox, read = null, boxRef }: BoxProps) {
  const pkName = keys.partitionKey.name;
  const keyText = attributeText(entry.partitionValue);
  const cost = wholeCollectionReadCost(entry.sizeBytes);
  const titleId = `box-${index}-title`;
  return (
    <article
      ref={boxRef}
      className={`run-box${marked ? " run-box-marked" : ""}${keys.sortKey === null ? " run-box-single" : ""}${read === null ? "" : ` run-box-${read.role}`}`}
      data-read={read?.role}
      aria-labelledby={titleId}
      aria-posinset={index + 1}
      aria-setsize={total}
      aria-busy={state === undefined || state.status === "loading"}
      tabIndex={0}
      data-testid="collection-run-box"
      data-key={keyText}
      onKeyDown={(event) => onKeyDown(event, index, entry)}
    >
      <header className="run-box-header">
        <h3 id={titleId} className="run-box-title">
          <span className="run-box-pk-name">{pkName} =</span> <span className="run-box-pk-value">{keyText}</span>
        </h3>
        <span className="run-box-figures" data-testid="box-figures">
          {formatCount(entry.itemCount)} {entry.itemCount === 1 ? "item" : "items"} · {byteCountLabel(entry.sizeBytes)}
        </span>
        <span
          className="run-box-cost"
          data-testid="box-cost"
          title="What a Query reading every item of this collection costs: its size rounded up to 4 KB blocks, 1 RCU a block strongly consistent, half eventually (a page is at most 1 MB)."
        >
          whole: {formatUnits(cost.eventual)} RCU eventual · {formatUnits(cost.strong)} strong
        </span>
        <button
          type="button"
          className="run-box-open"
          tabIndex={-1}
          aria-label={`Open ${pkName} = ${keyText} in Items`}
          onClick={() => onOpen(entry.partitionValue)}
        >
          Open in Items
        </button>
      </header>
      {read?.role === "read" && (
        <p className="run-box-read-note" data-testid="box-read-note">
          The query reads this collection, and only this one.
        </p>
      )}
      {read?.role === "walked" && (
        <p className="run-box-read-note" data-testid="box-walked-note">
          The scan read {formatCount(read.items)} {read.items === 1 ? "item" : "items"} here.
        </p>
      )}
      {read?.role === "read" ? (
        <ReadRows keys={keys} pages={read.pages} loading={read.loading} />
      ) : (
        <BoxBody entry={entry} keys={keys} state={state} onOpen={onOpen} onRetry={onRetry} rowsPerBox={rowsPerBox} />
      )}
    </article>
  );
});

function BoxBody({
  entry,
  keys,
  state,
  onOpen,
  onRetry,
  rowsPerBox,
}: {
  entry: CollectionEntry;
  keys: KeySchema;
  state: BoxState | undefined;
  onOpen: (value: AttributeValue) => void;
  onRetry: (key: string) => void;
  rowsPerBox: number;
}) {
  if (state === undefined || state.status === "loading") {
    return (
      <p className="run-box-loading muted" data-testid="box-loading">
        Reading the first {formatCount(Math.min(entry.itemCount, rowsPerBox))} {entry.itemCount === 1 ? "item" : "items"}…
      </p>
    );
  }
  if (state.status === "error") {
    return (
      <p className="run-box-error" role="alert">
        This collection could not be read: {state.error.message} <code>{state.error.exception ?? errorTitle(state.error.code)}</code>{" "}
        <button type="button" onClick={() => onRetry(entry.key)}>
          Try again
        </button>
      </p>
    );
  }
  return <BoxRows entry={entry} keys={keys} items={state.items} more={state.more} onOpen={onOpen} />;
}

export { boxColumns } from "./boxColumns";

function BoxRows({
  entry,
  keys,
  items,
  more,
  onOpen,
}: {
  entry: CollectionEntry;
  keys: KeySchema;
  items: Item[];
  more: boolean;
  onOpen: (value: AttributeValue) => void;
}) {
  const columns = useMemo(() => boxColumns(keys, items), [keys, items]);
  const sortKey = keys.sortKey?.name ?? null;
  // The statistics count every item; the Query drew the first ones.
  const rest = Math.max(0, entry.itemCount - items.length);
  const style = { "--run-columns": columns.length } as CSSProperties;
  return (
    <>
      <div className="run-box-table-wrap">
        <table className="run-box-table" style={style}>
          <thead>
            <tr>
              {sortKey !== null && (
                <th scope="col" className="run-box-sk">
                  {sortKey}
                </th>
              )}
              {columns.map((name) => (
                <th scope="col" key={name}>
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {items.map((item, i) => (
              <tr key={i} data-testid="box-row">
                {sortKey !== null && (
                  <th scope="row" className="run-box-sk">
                    {item[sortKey] === undefined ? <Absent /> : <TypedValue value={item[sortKey]!} />}
                  </th>
                )}
                {columns.map((name) => (
                  <td key={name}>{item[name] === undefined ? <Absent /> : <TypedValue value={item[name]!} />}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {(rest > 0 || more) && (
        <p className="run-box-more" data-testid="box-more">
          … {rest > 0 ? `${formatCount(rest)} more ${rest === 1 ? "item" : "items"}` : "more items"} in this collection, after{" "}
          {sortKey === null ? "these" : "the last one drawn"}.{" "}
          <button type="button" className="link" tabIndex={-1} onClick={() => onOpen(entry.partitionValue)}>
            Read them all in Items
          </button>
        </p>
      )}
    </>
  );
}

function Absent() {
  return (
    <span className="run-absent" title="This item has no such attribute">
      —
    </span>
  );
}
