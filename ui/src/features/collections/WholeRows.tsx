/**
 * The inside of a box shown whole: every item of its collection in sort-key order, as rows of one
 * height inside the run's own scroll. Only the rows in sight (plus a few) are in the document, and
 * the items are read page after page (Query with ExclusiveStartKey, `readOn`) as their rows come
 * into sight, so a collection of 100,000 items opens like one of 20 and scrolls like one of 20.
 *
 * The rows are virtualised against the run's scroll element with a scroll margin (where the rows
 * start in the run), so the box scrolls with its neighbours: no scroll inside a scroll. Columns
 * are every attribute the items read so far have (new ones are added on the right as pages
 * arrive), the sort key first. In a box a filtered Scan walked, the rows it did not return are
 * drawn as dropped by its filter (`returns`).
 */
import { useEffect } from "react";
import type { KeySchema } from "../../ipc/bindings.gen";
import { formatCount, formatCountOf } from "../../shared/format";
import type { BoxState, CollectionEntry } from "./useCollections";
import { GRID_ROW, GridCells, GridHead, useGrid, type Marks } from "./RowGrid";
import { windowStyle } from "../../shared/virtualWindow";
import { ValueOpenedContext } from "../../shared/TypedValue";
import { useRowsInRun } from "./useRowsInRun";
import { SCAN_DROPPED_TITLE, scanReturned, type ScanReturns } from "./activeRead";

type Ok = Extract<BoxState, { status: "ok" }>;

/**
 * The rows of a box shown whole: the statistics' item count while there is more to read, what the
 * reads found once they reach the end (a collection may have grown or shrunk since it was counted).
 */
export function wholeRowCount(entry: CollectionEntry, state: BoxState | undefined): number {
  if (state?.status !== "ok") return entry.itemCount;
  return state.more ? Math.max(entry.itemCount, state.items.length + 1) : state.items.length;
}

export function WholeRows({
  entry,
  keys,
  marks,
  state,
  scrollElement,
  boxStart,
  onReadOn,
  returns = null,
}: {
  entry: CollectionEntry;
  keys: KeySchema;
  marks: Marks;
  state: Ok;
  /** The run's scroll element. */
  scrollElement: HTMLElement | null;
  /** Where the box's slot starts in the run (px): the rows start this far plus the box's head. */
  boxStart: number;
  onReadOn: (key: string, upTo: number) => void;
  /** What a filtered Scan returned, when it walked this box: the rows it did not are marked dropped. */
  returns?: ScanReturns | null;
}) {
  const sortKey = keys.sortKey?.name ?? null;
  const grid = useGrid(keys, state.items);
  const count = wholeRowCount(entry, state);
  const { rowsRef, headTop, virtualizer, onValueOpened, measureRow } = useRowsInRun({ count, estimateSize: () => GRID_ROW, scrollElement, boxStart });
  const virtual = virtualizer.getVirtualItems();
  const lastInSight = virtual.at(-1)?.index ?? -1;
  useEffect(() => {
    if (lastInSight >= state.items.length && state.more) onReadOn(entry.key, lastInSight);
  }, [lastInSight, state.items.length, state.more, entry.key, onReadOn]);

  return (
    <div className="whole" data-testid="whole-rows" aria-rowcount={count} style={grid.style}>
      <div className="whole-head" style={{ top: headTop }}>
        <GridHead keys={keys} grid={grid} marks={marks} />
      </div>
      <div ref={rowsRef} className="whole-rows" style={{ height: virtualizer.getTotalSize() }}>
        <ValueOpenedContext.Provider value={onValueOpened}>
          <div className="whole-window" style={windowStyle(virtualizer)}>
            {virtual.map((v) => {
              const item = state.items[v.index];
              const dropped = item !== undefined && returns !== null && !scanReturned(returns, item);
              return (
                <div
                  key={v.index}
                  ref={measureRow(v.index)}
                  className={`grid-row${dropped ? " run-box-row-dropped" : ""}`}
                  role="row"
                  aria-rowindex={v.index + 1}
                  data-testid={item === undefined ? "box-row-pending" : "box-row"}
                  data-index={v.index}
                  data-row={v.index}
                  data-dropped={dropped ? "true" : undefined}
                  title={dropped ? SCAN_DROPPED_TITLE : undefined}
                  tabIndex={-1}
                >
                  {item === undefined ? (
                    <span className="run-box-loading muted">{state.readOnError ? "Not read." : "Reading…"}</span>
                  ) : (
                    <GridCells keys={keys} grid={grid} item={item} rowHeaderPrefix={dropped && sortKey !== null ? "Dropped by the filter: " : null} />
                  )}
                </div>
              );
            })}
          </div>
        </ValueOpenedContext.Provider>
      </div>
      <p className="run-box-more" data-testid="whole-status">
        {state.readOnError
          ? `Reading on failed: ${state.readOnError.message}`
          : state.more
            ? `${formatCount(state.items.length)} of ${formatCountOf(count, "item")} read; the rest are read as they come into sight.`
            : `All ${formatCountOf(state.items.length, "item")} read.`}
      </p>
    </div>
  );
}
