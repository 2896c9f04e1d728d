/**
 * How tall a box of the Collections view's run is, counted before it is drawn. A box's parts have
 * heights in whole pixels (CollectionsView.css sets each of them), so the estimate of a box is its
 * measured height to the pixel, and drawing a box does not change the run's measurements: each
 * change makes the virtualizer lay out every position after the box again (10,000 of them in a
 * large table), which was a fifth of a scroll's script time and most of the garbage it left
 * (bench/app/views.md).
 */
import type { BoxState, CollectionEntry } from "./useCollections";
import { wholeRowCount } from "./WholeRows";
import { GRID_ROW } from "./RowGrid";

/** The header, on one line: 6 + 20 + 6 px and its 1 px rule. */
export const HEADER = 33;
const COLUMN_HEADER = GRID_ROW;
/** The "… more items" line: 5 + 14 + 5 px and its 1 px rule. */
const MORE = 25;
/** The slot's space under its box. */
const GAP = 12;
/** The box's dashed edge, 1.5 px above and below. */
const EDGE = 3;

/** A box's height in the run: its header, rows, "more" line, edge and the gap under it. */
export function estimate(entry: CollectionEntry | undefined, state: BoxState | undefined, rowsPerBox: number, whole: boolean): number {
  // Not listed yet: counted as a full box (most boxes of a table worth virtualising are), so the
  // run's length barely moves as its stretches are listed.
  if (entry === undefined) return HEADER + UNREAD_FULL_BODY(rowsPerBox) + GAP + EDGE;
  if (whole) return HEADER + COLUMN_HEADER + wholeRowCount(entry, state) * GRID_ROW + MORE + GAP + EDGE;
  if (state?.status !== "ok") return HEADER + unreadBody(entry, rowsPerBox) + GAP + EDGE;
  const rows = Math.min(state.items.length, rowsPerBox);
  const more = entry.itemCount > rows ? MORE : 0;
  return HEADER + COLUMN_HEADER + rows * GRID_ROW + more + GAP + EDGE;
}

/** The height a box's rows will take once its first ones are read: a box not read yet (or not
 * listed yet) keeps that much room, so that it does not grow under the boxes after it when its
 * rows arrive. (A box measured short while it read, then grown, pushed a box revealed below it
 * out of sight: the run's virtualizer keeps the scroll position for boxes wholly above it, not for
 * one drawn in sight.) */
export function unreadBody(entry: CollectionEntry, rowsPerBox: number): number {
  const rows = Math.min(entry.itemCount, rowsPerBox);
  return COLUMN_HEADER + rows * GRID_ROW + (entry.itemCount > rows ? MORE : 0);
}
export const UNREAD_FULL_BODY = (rowsPerBox: number) => COLUMN_HEADER + rowsPerBox * GRID_ROW + MORE;
