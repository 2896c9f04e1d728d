/**
 * The inside of the box a Query read: the items it returned, in the order it returned them, and
 * after each page the cut DynamoDB made there (rule B.4, docs/dynamodb-rules.md): the Limit of
 * items evaluated, the 1 MB a page reads at most, or the end of the key range; the
 * LastEvaluatedKey the next page starts after; what the page cost; and the items the filter
 * dropped — read (and paid for) but not returned, since a filter runs after the read. Once they
 * are read back (`useDroppedItems`: at once on the embedded engine, on request on AWS) they are
 * drawn in their places among the returned items, struck through.
 *
 * A page holds up to 1 MB of items (thousands of small ones), so the lines are virtualised in
 * the run's own scroll the way a box shown whole is (WholeRows): rows of one height on the box's
 * grid, the page lines measured, only those in sight in the document, the column header in sight
 * under the box's header.
 */
import { useMemo } from "react";
import type { KeySchema, QueryPage } from "../../ipc/bindings.gen";
import { attributeText } from "../../shared/attributeValue";
import { formatCount, formatUnits } from "../../shared/format";
import { droppedCount, type DroppedPage, type ReadRow } from "../../shared/droppedItems";
import { windowStyle } from "../../shared/virtualWindow";
import { ValueOpenedContext } from "../../shared/TypedValue";
import { boxColumns } from "./boxColumns";
import { GRID_ROW, GridCells, GridHead, gridOf } from "./RowGrid";
import { useRowsInRun } from "./useRowsInRun";

const STOP_TEXT = {
  limit: "Limit reached",
  size: "1 MB read",
  end: "end of the key range",
} as const;

/** A page line's height before it is measured (it wraps on a narrow window). */
const PAGE_LINE = 30;

/** One line of the read box: an item's row, or a page's dropped-items or cut line. */
type Line =
  | ({ kind: "row"; page: number; /** Its place among the page's returned items (dropped: -1). */ at: number } & ReadRow)
  | { kind: "dropped"; page: number }
  | { kind: "cut"; page: number };

export function ReadRows({
  keys,
  pages,
  loading,
  dropped,
  onShowDropped,
  scrollElement,
  boxStart,
}: {
  keys: KeySchema;
  pages: QueryPage[];
  loading: boolean;
  /** The dropped items read back so far, by page. */
  dropped: ReadonlyMap<number, DroppedPage>;
  /** Reads a page's dropped items back; null when that happens without asking. */
  onShowDropped: ((page: number) => void) | null;
  /** The run's scroll element. */
  scrollElement: HTMLElement | null;
  /** Where the box's slot starts in the run (px). */
  boxStart: number;
}) {
  const lines = useMemo(() => {
    const out: Line[] = [];
    pages.forEach((page, n) => {
      let at = 0;
      for (const row of pageRows(page, dropped.get(n))) out.push({ kind: "row", page: n, at: row.dropped ? -1 : at++, ...row });
      if (droppedCount(page) > 0) out.push({ kind: "dropped", page: n });
      out.push({ kind: "cut", page: n });
    });
    return out;
  }, [pages, dropped]);
  const grid = useMemo(() => {
    const items = lines.flatMap((l) => (l.kind === "row" ? [l.item] : []));
    const sortKey = keys.sortKey?.name;
    let chars = 6;
    if (sortKey !== undefined) {
      for (const item of items.slice(0, 2000)) {
        const value = item[sortKey];
        if (value !== undefined) chars = Math.max(chars, attributeText(value).length);
      }
    }
    return gridOf(keys, boxColumns(keys, items), chars);
  }, [keys, lines]);

  const { rowsRef, headTop, virtualizer, onValueOpened, measureRow } = useRowsInRun({
    count: lines.length,
    estimateSize: (i) => (lines[i]?.kind === "row" ? GRID_ROW : PAGE_LINE),
    scrollElement,
    boxStart,
    remeasure: pages.length,
  });

  if (pages.length === 0) {
    return <p className="run-box-loading muted">{loading ? "The query is reading this collection…" : "Nothing read yet."}</p>;
  }
  const sortKey = keys.sortKey?.name ?? null;
  return (
    <div className="whole" data-testid="read-rows" aria-rowcount={lines.length} style={grid.style}>
      <div className="whole-head" style={{ top: headTop }}>
        <GridHead keys={keys} grid={grid} marks={null} />
      </div>
      <div ref={rowsRef} className="whole-rows" style={{ height: virtualizer.getTotalSize() }}>
        <ValueOpenedContext.Provider value={onValueOpened}>
          <div className="whole-window" style={windowStyle(virtualizer)}>
            {virtualizer.getVirtualItems().map((v) => {
              const line = lines[v.index]!;
              if (line.kind === "row") {
                return (
                  <div
                    key={v.index}
                    ref={measureRow(v.index)}
                    data-index={v.index}
                    className={`grid-row${line.dropped ? " run-box-row-dropped" : ""}`}
                    role="row"
                    aria-rowindex={v.index + 1}
                    data-testid={line.dropped ? "box-row-dropped" : "box-row"}
                    // A returned item's row takes the keyboard like a box's rows (open, copy): the
                    // box finds its item by page and place.
                    data-page={line.page}
                    data-at={line.dropped ? undefined : line.at}
                    tabIndex={line.dropped ? undefined : -1}
                    title={line.dropped ? "Read and paid for, then dropped by the filter: not in the result" : undefined}
                  >
                    <GridCells keys={keys} grid={grid} item={line.item} rowHeaderPrefix={line.dropped && sortKey !== null ? "Dropped by the filter: " : null} />
                  </div>
                );
              }
              const page = pages[line.page]!;
              return (
                <div key={v.index} data-index={v.index} ref={virtualizer.measureElement} className="run-box-line">
                  {line.kind === "dropped" ? (
                    <DroppedLine page={page} state={dropped.get(line.page)} onShow={onShowDropped === null ? null : () => onShowDropped(line.page)} />
                  ) : (
                    <CutLine page={page} n={line.page} />
                  )}
                </div>
              );
            })}
          </div>
        </ValueOpenedContext.Provider>
      </div>
    </div>
  );
}

/** A page's rows: the returned items, with the dropped ones among them once they are read back. */
function pageRows(page: QueryPage, back: DroppedPage | undefined): ReadRow[] {
  return back?.status === "ok" ? back.rows : page.items.map((item) => ({ item, dropped: false }));
}

/** Where DynamoDB cut a page, what it cost, and the key the next page starts after. */
function CutLine({ page, n }: { page: QueryPage; n: number }) {
  const units = page.consumedCapacity?.total ?? null;
  const last = page.lastEvaluatedKey;
  return (
    <p className={`run-box-cut run-box-cut-${page.stop}`} data-testid="box-cut">
      <span className="run-box-cut-line" aria-hidden="true" />
      Page {n + 1} · {formatCount(page.count)} returned of {formatCount(page.scannedCount)} read · {STOP_TEXT[page.stop]}
      {units !== null && ` · ${formatUnits(units)} RCU`}
      {last !== null && (
        <>
          {" "}
          · LastEvaluatedKey{" "}
          <code>
            {Object.entries(last)
              .map(([k, v]) => `${k} = ${attributeText(v)}`)
              .join(", ")}
          </code>
        </>
      )}
    </p>
  );
}

/** How many items of a page the filter dropped, what reading them cost, and where they stand. */
function DroppedLine({ page, state, onShow }: { page: QueryPage; state: DroppedPage | undefined; onShow: (() => void) | null }) {
  const count = droppedCount(page);
  const units = page.consumedCapacity?.total ?? null;
  return (
    <p className="run-box-dropped" data-testid="box-dropped">
      {formatCount(count)} {count === 1 ? "item" : "items"} read but not returned: the filter dropped {count === 1 ? "it" : "them"} after the read
      {units !== null && ` — this page's ${formatUnits(units)} RCU paid for all ${formatCount(page.scannedCount)} read`}.
      <DroppedState state={state} count={count} units={units} onShow={onShow} />
    </p>
  );
}

/** Where a page's dropped items stand: drawn, being read back, not readable, or offered. */
function DroppedState({
  state,
  count,
  units,
  onShow,
}: {
  state: DroppedPage | undefined;
  count: number;
  units: number | null;
  onShow: (() => void) | null;
}) {
  const them = count === 1 ? "It is" : "They are";
  if (state?.status === "ok") return <span> {them} drawn struck through among the returned items.</span>;
  if (state?.status === "loading") return <span> Reading {count === 1 ? "it" : "them"} back…</span>;
  if (state?.status === "error") return <span className="run-box-error-text"> {state.message}</span>;
  if (onShow === null) return null;
  return (
    <>
      {" "}
      <button type="button" className="run-box-open" onClick={onShow} data-testid="box-show-dropped">
        Show {count === 1 ? "it" : "them"}
        {units !== null && ` (reads the page again without the filter: ${formatUnits(units)} RCU)`}
      </button>
    </>
  );
}
