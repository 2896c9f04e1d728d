/**
 * One item collection drawn as DynamoDB stores it: a dashed box headed by the partition-key value,
 * its items in the order the Query returned them (sort-key order, or reversed when the query ran
 * newest first), the sort key in the left margin, the other attributes as columns, and a page
 * mark after every page saying where and why the page ended.
 *
 * The rows are virtualised (@tanstack/react-virtual): only the rows in view, plus `overscan` on
 * each side, are in the DOM, so 100,000 items scroll like 100. Row heights are measured, so an
 * opened map or list grows its row.
 *
 * Keyboard: the grid is one Tab stop. ↑/↓, Page Up/Down, Home/End move the selection (page marks
 * are skipped) and keep the selected row in sight under the sticky column header, Enter edits the
 * selected item, Space checks it in a bulk edit (and never scrolls the grid), Ctrl/Cmd+J loads the
 * next page.
 *
 * The columns can be chosen (Columns…, closed by Escape or by the focus leaving it), and a click on
 * a column's name sorts the items read by it, in the app: highest first, then lowest first, then
 * DynamoDB's order again. A sorted grid says so above the rows and draws no page marks
 * (`sortedItemRows`); its "DynamoDB's order" button hands the focus to the column that was sorted
 * as it goes.
 */
import { memo, useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type CSSProperties } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { AttributeValue, KeySchema, QueryPage } from "../../ipc/bindings.gen";
import type { Item } from "../../shared/attributeValue";
import { TypedValue } from "../../shared/TypedValue";
import { Absent } from "../../shared/Absent";
import { windowStyle } from "../../shared/virtualWindow";
import { attributeText, valueTitle } from "../../shared/attributeValue";
import {
  capacityLabel,
  collectionColumns,
  collectionRows,
  filteredLabel,
  sortedItemRows,
  type ColumnSort,
  itemCountLabel,
  pageEndLabel,
  stopLabel,
  type CollectionRow,
} from "./collectionRows";
import { matchesShortcut } from "../../app/shortcuts";
import "./CollectionBox.css";

export type CollectionBoxProps = {
  /** The key schema of what was queried: the table's, or the index's. */
  keys: KeySchema;
  /** When an index was queried, the table's keys (shown as the first columns after the index keys). */
  tableKeys?: KeySchema | null;
  /**
   * The collection's partition-key value, which heads the box; `null`: a flat grid of items from
   * many collections (what a Scan returned), headed by `title`, the partition key in the margin.
   */
  partitionValue: AttributeValue | null;
  /** The heading of a flat grid. */
  title?: string;
  /** The pages in the order they arrived. */
  pages: QueryPage[];
  /** A page is being fetched: "Load more" is disabled and says so. */
  loading: boolean;
  /**
   * Fetch the page after the last one (called with nothing: the caller holds the LastEvaluatedKey);
   * `null`: the pages come by themselves (a Scan's), so there is no Load more.
   */
  onLoadMore: (() => void) | null;
  /** Open the item in the editor (Enter or double-click on a row). */
  onEdit: (item: Item) => void;
  /** The selected item changed. */
  onSelect?: (item: Item | null) => void;
  /** Copy the selected item (Mod+C on the grid). */
  onCopy?: ((item: Item) => void) | undefined;
  /**
   * A checkbox column (for bulk edits): the items checked, by their index in the run, and the
   * toggle (a click on the box, or Space on the selected row).
   */
  checked?: ReadonlySet<number> | undefined;
  onCheck?: ((itemIndex: number) => void) | undefined;
  /** Rows rendered above and below the visible ones. Default 8. */
  overscan?: number;
  /** Accessible name of the grid; default "Items of <pk> = <value>". */
  label?: string;
  /** Loading the next page failed: shown beside Load more, with the exception name. */
  loadError?: { name: string; message: string } | null;
};

const ITEM_ROW_HEIGHT = 30;
const PAGE_MARK_HEIGHT = 46;
const HEADER_HEIGHT = 30; // matches .collection-header-row in CollectionBox.css

export function CollectionBox({
  keys,
  tableKeys = null,
  partitionValue,
  title = "Items",
  pages,
  loading,
  onLoadMore,
  onEdit,
  onSelect,
  onCopy,
  checked,
  onCheck,
  overscan = 8,
  label,
  loadError = null,
}: CollectionBoxProps) {
  const [sort, setSort] = useState<ColumnSort | null>(null);
  const [selected, setSelected] = useState<number | null>(null); // an index into itemRowIndexes
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const [choosing, setChoosing] = useState(false);
  const chooserSummary = useRef<HTMLElement>(null);
  const rows = useMemo(() => (sort === null ? collectionRows(pages) : sortedItemRows(pages, sort)), [pages, sort]);
  const flat = partitionValue === null;
  // The attribute in the rows' margin: the sort key of one collection, the partition key of many.
  const margin = flat ? keys.partitionKey.name : (keys.sortKey?.name ?? null);
  const allColumns = useMemo(() => collectionColumns(keys, tableKeys, pages, flat), [keys, tableKeys, pages, flat]);
  const columns = useMemo(() => allColumns.filter((name) => !hidden.has(name)), [allColumns, hidden]);
  // A new order moves every row: the selection (a position in it) is cleared, not moved to
  // another item.
  const changeSort = (next: ColumnSort | null) => {
    setSort(next);
    setSelected(null);
  };
  // "DynamoDB's order" goes with the sort it undoes: the focus it had goes to that column's header.
  const headerRef = useRef<HTMLDivElement>(null);
  const focusHeader = useRef<string | null>(null);
  const unsort = () => {
    focusHeader.current = sort?.name ?? null;
    changeSort(null);
  };
  useEffect(() => {
    const name = focusHeader.current;
    if (name === null || sort !== null) return;
    focusHeader.current = null;
    const headers = [...(headerRef.current?.querySelectorAll<HTMLElement>("[data-column]") ?? [])];
    const header = headers.find((h) => h.dataset.column === name) ?? headers[0];
    (header?.querySelector<HTMLElement>("button") ?? scrollRef.current)?.focus();
  }, [sort]);
  // Highest first, then lowest first, then DynamoDB's order.
  const sortBy = (name: string) =>
    changeSort(sort?.name !== name ? { name, descending: true } : sort.descending ? { name, descending: false } : null);
  const ariaSort = (name: string) => (sort?.name !== name ? undefined : sort.descending ? "descending" : "ascending");
  const arrow = (name: string) => (sort?.name !== name ? "" : sort.descending ? " ↓" : " ↑");
  // What the next click does, said on the header.
  const sortTitle = (name: string) =>
    sort?.name !== name
      ? `Sort the items read by ${name}, highest first`
      : sort.descending
        ? `Sort the items read by ${name}, lowest first`
        : "Back to DynamoDB's order";
  const itemRowIndexes = useMemo(() => rows.flatMap((row, i) => (row.kind === "item" ? [i] : [])), [rows]);

  const scrollRef = useRef<HTMLDivElement>(null);
  const gridId = useId();

  // Stable per set of rows: the virtualiser recomputes every row's offset when these change.
  const estimateSize = useCallback((i: number) => (rows[i]?.kind === "page" ? PAGE_MARK_HEIGHT : ITEM_ROW_HEIGHT), [rows]);
  const getItemKey = useCallback(
    (i: number) => {
      const row = rows[i];
      return row === undefined ? i : row.kind === "item" ? `i${row.itemIndex}` : `p${row.pageIndex}`;
    },
    [rows],
  );
  const getScrollElement = useCallback(() => scrollRef.current, []);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement,
    estimateSize,
    overscan,
    // Re-render through React's scheduler, not flushSync from inside a commit (React 19 warns).
    useFlushSync: false,
    // The sticky column header sits above the rows inside the same scroll area: the rows start
    // under it, and a row scrolled to from above stops under it, not behind it.
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    getItemKey,
  });

  const lastPage = pages[pages.length - 1];
  const canLoadMore = onLoadMore !== null && lastPage !== undefined && lastPage.lastEvaluatedKey !== null;
  const itemCount = itemRowIndexes.length;
  const selectedRow = selected === null ? null : (itemRowIndexes[selected] ?? null);
  const selectedItem = selectedRow === null ? null : rows[selectedRow];

  // A new query (fewer rows than the selection) clears the selection.
  useEffect(() => {
    if (selected !== null && selected >= itemCount) setSelected(null);
  }, [itemCount, selected]);

  useEffect(() => {
    onSelect?.(selectedItem?.kind === "item" ? selectedItem.item : null);
    // Only a change of the selected item is news, not a new callback identity.
  }, [selectedItem]);

  const select = useCallback(
    (next: number) => {
      if (itemCount === 0) return;
      const clamped = Math.max(0, Math.min(itemCount - 1, next));
      setSelected(clamped);
      const rowIndex = itemRowIndexes[clamped];
      if (rowIndex !== undefined) virtualizer.scrollToIndex(rowIndex, { align: "auto" });
    },
    [itemCount, itemRowIndexes, virtualizer],
  );

  // A stable callback for the memoised rows, always calling the latest onEdit.
  const onEditRef = useRef(onEdit);
  onEditRef.current = onEdit;
  const openItem = useCallback((item: Item) => onEditRef.current(item), []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (matchesShortcut("next-page", event.nativeEvent)) {
      // Handled here: a window-wide binding of the same shortcut must not load twice.
      event.preventDefault();
      event.stopPropagation();
      if (canLoadMore && !loading) onLoadMore?.();
      return;
    }
    // Keys pressed on a control inside a row (a map's disclosure) belong to that control.
    if (event.target !== event.currentTarget) return;
    const pageSize = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 300) / ITEM_ROW_HEIGHT) - 1);
    const current = selected ?? -1;
    const moves: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: selected === null ? 0 : current - 1,
      PageDown: current + pageSize,
      PageUp: current - pageSize,
      Home: 0,
      End: itemCount - 1,
    };
    const target = moves[event.key];
    if (target !== undefined && matchesShortcut("move-selection", event.nativeEvent)) {
      event.preventDefault();
      select(target);
    } else if (matchesShortcut("edit-item", event.nativeEvent) && selectedItem?.kind === "item") {
      event.preventDefault();
      event.stopPropagation();
      onEdit(selectedItem.item);
    } else if (matchesShortcut("check-item", event.nativeEvent) && selectedItem?.kind === "item") {
      // Space checks the row in a bulk edit; outside one it does nothing, rather than scroll the
      // grid a screen on and the selected row out of sight.
      event.preventDefault();
      onCheck?.(selectedItem.itemIndex);
    } else if (onCopy !== undefined && matchesShortcut("copy-item", event.nativeEvent) && selectedItem?.kind === "item") {
      event.preventDefault();
      onCopy(selectedItem.item);
    }
  };

  const pkName = keys.partitionKey.name;
  const heading = partitionValue === null ? title : `${pkName} = ${attributeText(partitionValue)}`;
  const checkable = onCheck !== undefined;
  const template = useMemo(() => (checkable ? "2rem " : "") + columnTemplate(margin, columns, pages), [margin, columns, pages, checkable]);
  const onCheckRef = useRef(onCheck);
  onCheckRef.current = onCheck;
  const checkItem = useCallback((itemIndex: number) => onCheckRef.current?.(itemIndex), []);
  // The scroll area shrinks to a short collection and stops at 60vh for a long one (set on the box:
  // the Items view sizes the box by its grid's height too).
  const gridStyle = { "--collection-columns": template, "--collection-height": `${virtualizer.getTotalSize() + HEADER_HEIGHT + 4}px` } as CSSProperties;
  const rowId = (rowIndex: number) => `${gridId}-row-${rowIndex}`;
  const activeDescendant =
    selectedRow !== null && virtualizer.getVirtualItems().some((v) => v.index === selectedRow) ? rowId(selectedRow) : undefined;

  return (
    <section className="collection-box" aria-label={flat ? title : `Item collection ${heading}`} style={gridStyle}>
      <header className="collection-heading">
        {partitionValue === null ? (
          <span className="collection-pk-value">{title}</span>
        ) : (
          <>
            <span className="collection-pk-name">{pkName}</span>
            <span className="collection-pk-value">
              <TypedValue value={partitionValue} />
            </span>
          </>
        )}
        <span className="collection-summary muted">
          {itemCountLabel(itemCount)} · {pages.length === 1 ? "1 page" : `${pages.length} pages`}
        </span>
        {allColumns.length > 0 && (
          <details
            className="column-chooser"
            open={choosing}
            onToggle={(event) => setChoosing(event.currentTarget.open)}
            // Escape closes it, the focus back on Columns…; so does the focus leaving it (for
            // another control: a click on nothing focusable leaves it open).
            onKeyDown={(event) => {
              if (event.key !== "Escape" || !choosing) return;
              event.preventDefault();
              event.stopPropagation();
              setChoosing(false);
              chooserSummary.current?.focus();
            }}
            onBlur={(event) => {
              const next = event.relatedTarget;
              if (next instanceof Node && !event.currentTarget.contains(next)) setChoosing(false);
            }}
          >
            {/* Opened and closed by the state (a click, Enter or Space on it), not left to the
                element: the toggle event that tells of it comes later, after a key pressed at once. */}
            <summary
              ref={chooserSummary}
              onClick={(event) => {
                event.preventDefault();
                setChoosing((open) => !open);
              }}
            >
              Columns{hidden.size > 0 ? ` (${columns.length} of ${allColumns.length})` : ""}…
            </summary>
            <fieldset aria-label="Columns shown">
              {allColumns.map((name) => (
                <label key={name}>
                  <input
                    type="checkbox"
                    checked={!hidden.has(name)}
                    onChange={() =>
                      setHidden((h) => {
                        const next = new Set(h);
                        if (next.has(name)) next.delete(name);
                        else next.add(name);
                        return next;
                      })
                    }
                  />{" "}
                  {name}
                </label>
              ))}
            </fieldset>
          </details>
        )}
      </header>
      {sort !== null && (
        <p className="collection-sorted" role="status" data-testid="collection-sorted">
          Sorted in the app by <strong>{sort.name}</strong>, {sort.descending ? "highest first" : "lowest first"}: the{" "}
          {itemCountLabel(itemCount)} read, not DynamoDB's order, so no page marks.{" "}
          <button type="button" onClick={unsort}>
            DynamoDB's order
          </button>
        </p>
      )}
      <div
        ref={scrollRef}
        className="collection-scroll"
        role="grid"
        aria-label={label ?? `Items of ${heading}`}
        aria-rowcount={rows.length + 1}
        aria-colcount={columns.length + (margin !== null ? 1 : 0) + (checkable ? 1 : 0)}
        aria-activedescendant={activeDescendant}
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        <div ref={headerRef} role="row" aria-rowindex={1} className="collection-row collection-header-row">
          {checkable && (
            <span role="columnheader" className="collection-check" title="Checked items are the bulk edit's">
              ✓
            </span>
          )}
          {/* The whole header cell sorts (a click anywhere in it, not only on the name); its button
              is the keyboard's way in (Tab, then Enter or Space), whose click arrives here too. */}
          {margin !== null && (
            <span role="columnheader" className="collection-margin column-sortable" data-column={margin} aria-sort={ariaSort(margin)} onClick={() => sortBy(margin)}>
              <button type="button" className="column-sort" title={sortTitle(margin)}>
                {margin}
                {arrow(margin)}
              </button>
            </span>
          )}
          {columns.map((name) => (
            <span role="columnheader" key={name} className="collection-cell column-sortable" data-column={name} aria-sort={ariaSort(name)} onClick={() => sortBy(name)}>
              <button type="button" className="column-sort" title={sortTitle(name)}>
                {name}
                {arrow(name)}
              </button>
            </span>
          ))}
        </div>
        {rows.length === 0 && (
          <p className="collection-empty muted">{loading ? "Reading the first page…" : "No pages read yet."}</p>
        )}
        <div className="collection-rows" style={{ height: virtualizer.getTotalSize() }}>
          <div className="collection-window" style={windowStyle(virtualizer)}>
            {virtualizer.getVirtualItems().map((virtual) => {
              const row = rows[virtual.index] as CollectionRow;
              return row.kind === "item" ? (
                <ItemRow
                  key={virtual.key}
                  id={rowId(virtual.index)}
                  rowIndex={virtual.index}
                  measure={virtualizer.measureElement}
                  item={row.item}
                  itemIndex={row.itemIndex}
                  sortKeyName={margin}
                  columns={columns}
                  selected={virtual.index === selectedRow}
                  onPick={setSelected}
                  onOpen={openItem}
                  checked={checkable ? (checked?.has(row.itemIndex) ?? false) : null}
                  onCheck={checkItem}
                />
              ) : (
                <div
                  key={virtual.key}
                  id={rowId(virtual.index)}
                  role="row"
                  aria-rowindex={virtual.index + 2}
                  data-index={virtual.index}
                  ref={virtualizer.measureElement}
                  className={`collection-row page-mark page-stop-${row.page.stop}`}
                >
                  <PageMark page={row.page} pageIndex={row.pageIndex} keys={keys} flat={flat} colSpan={columns.length + (margin !== null ? 1 : 0) + (checkable ? 1 : 0)} />
                </div>
              );
            })}
          </div>
        </div>
      </div>
      {canLoadMore && (
        <footer className="collection-footer">
          <button type="button" className="primary" onClick={() => onLoadMore?.()} disabled={loading} aria-keyshortcuts="Control+J Meta+J">
            {loading ? "Loading…" : "Load more"}
          </button>
          {loadError === null ? (
            <span className="muted">The last page ended before the collection did.</span>
          ) : (
            <span className="field-error" role="alert">
              The next page could not be read: {loadError.message} <code>{loadError.name}</code>
            </span>
          )}
        </footer>
      )}
      <span className="sr-only" role="status" aria-live="polite">
        {loading ? "Loading a page" : `${itemCountLabel(itemCount)} loaded`}
      </span>
    </section>
  );
}

/**
 * Every row is its own grid, so the columns get fixed widths: each as wide as the longest text
 * among the first items, between 6 and 32 characters. Widths are in rem, not ch, because the
 * header's font is smaller than the rows' and ch would differ between them.
 */
function columnTemplate(margin: string | null, columns: string[], pages: QueryPage[]): string {
  const sample = pages.flatMap((p) => p.items).slice(0, 200);
  const width = (name: string) => {
    let longest = name.length;
    for (const item of sample) {
      const value = item[name];
      if (value !== undefined) longest = Math.max(longest, attributeText(value).length + ("M" in value || "L" in value ? 6 : 0));
    }
    return `${((Math.min(32, Math.max(6, longest)) + 2) * 0.6).toFixed(2)}rem`;
  };
  return [...(margin === null ? [] : [width(margin)]), ...columns.map(width)].join(" ");
}

type ItemRowProps = {
  id: string;
  rowIndex: number;
  measure: (el: Element | null) => void;
  item: Item;
  itemIndex: number;
  sortKeyName: string | null;
  columns: string[];
  selected: boolean;
  onPick: (itemIndex: number) => void;
  onOpen: (item: Item) => void;
  /** Whether the row's checkbox is ticked; null: no checkbox column. */
  checked: boolean | null;
  onCheck: (itemIndex: number) => void;
};

/** One item; memoised on plain props so scrolling re-renders only rows that moved or changed. */
const ItemRow = memo(function ItemRow({ id, rowIndex, measure, item, itemIndex, sortKeyName, columns, selected, onPick, onOpen, checked, onCheck }: ItemRowProps) {
  const sortValue = sortKeyName === null ? undefined : item[sortKeyName];
  return (
    <div
      id={id}
      role="row"
      aria-rowindex={rowIndex + 2}
      aria-selected={selected}
      data-index={rowIndex}
      ref={measure}
      className={`collection-row item-row${selected ? " selected" : ""}`}
      onClick={() => onPick(itemIndex)}
      onDoubleClick={() => onOpen(item)}
    >
      {checked !== null && (
        <span role="gridcell" className="collection-check">
          <input
            type="checkbox"
            tabIndex={-1}
            aria-label={`Check item ${itemIndex + 1}`}
            checked={checked}
            onChange={() => onCheck(itemIndex)}
            onClick={(e) => e.stopPropagation()}
          />
        </span>
      )}
      {sortKeyName !== null && (
        <span role="rowheader" className="collection-margin" title={valueTitle(sortValue)}>
          {sortValue === undefined ? <Absent /> : <TypedValue value={sortValue} />}
        </span>
      )}
      {columns.map((name) => {
        const value = item[name];
        return (
          <span role="gridcell" key={name} className="collection-cell" title={valueTitle(value)}>
            {value === undefined ? <Absent /> : <TypedValue value={value} />}
          </span>
        );
      })}
    </div>
  );
});


function PageMark({ page, pageIndex, keys, flat, colSpan }: { page: QueryPage; pageIndex: number; keys: KeySchema; flat: boolean; colSpan: number }) {
  const end = pageEndLabel(page, keys, flat);
  const filtered = filteredLabel(page);
  return (
    <span role="gridcell" aria-colspan={colSpan} className="page-mark-cell" data-testid={`page-mark-${pageIndex + 1}`}>
      <span className="page-mark-title">
        Page {pageIndex + 1} · {itemCountLabel(page.count)} · <strong>{stopLabel(page, flat)}</strong>
        {end !== null && <span className="page-mark-end"> · ended at {end}</span>}
      </span>
      <span className="page-mark-facts">
        {filtered !== null && <span className="page-mark-filtered">{filtered}</span>}
        <span className="page-mark-capacity">Consumed {capacityLabel(page)}</span>
      </span>
    </span>
  );
}
