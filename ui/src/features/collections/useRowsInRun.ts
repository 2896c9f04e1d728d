/**
 * The rows of one box virtualised in the run's own scroll (a box shown whole, the box a Query
 * read): where the rows start in the run (the box's slot plus the box's header and column
 * header), the height of the box's header (the column header stays in sight under it), the
 * virtualizer over the rows with that scroll margin, and the measuring of a row a value opened in
 * made taller.
 */
import { useCallback, useLayoutEffect, useRef, useState } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";

export function useRowsInRun({
  count,
  estimateSize,
  scrollElement,
  boxStart,
  remeasure,
}: {
  count: number;
  estimateSize: (index: number) => number;
  /** The run's scroll element. */
  scrollElement: HTMLElement | null;
  /** Where the box's slot starts in the run (px). */
  boxStart: number;
  /** A value that, when it changes, means the box's head may have changed height. */
  remeasure?: unknown;
}) {
  const rowsRef = useRef<HTMLDivElement>(null);
  const [inBox, setInBox] = useState(0);
  const [headTop, setHeadTop] = useState(0);
  // (The slot is the rows' offset parent: it is positioned, nothing between them is.)
  useLayoutEffect(() => {
    const rows = rowsRef.current;
    if (rows === null) return;
    setInBox(rows.offsetTop);
    setHeadTop(rows.closest("article")?.querySelector<HTMLElement>(".run-box-header")?.offsetHeight ?? 0);
  }, [boxStart, remeasure]);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollElement,
    estimateSize,
    overscan: 12,
    scrollMargin: boxStart + inBox,
    // A virtualizer scrolls its scroll element to its own offset when it attaches to it, and a new
    // one's offset is `initialOffset`: without this, showing a box whole jumped the run to its top.
    initialOffset: () => scrollElement?.scrollTop ?? 0,
    useFlushSync: false,
  });
  // Rows are one height (`estimateSize`) and are not measured, but for a row with a map or list
  // value opened in it (TypedValue's `ValueOpenedContext`): measured then, and again whenever it is
  // drawn after (`measureRow`), so that closed, or drawn anew closed, it is its one height again.
  // (Observed from then on, the row is measured as it changes; measured at once too, since an
  // element measured before is not measured again by `measureElement` without an observation.)
  const grown = useRef(new Set<number>());
  const { measureElement, resizeItem } = virtualizer;
  const onValueOpened = useCallback(
    (value: HTMLElement) => {
      const row = value.closest<HTMLElement>("[data-index]");
      if (row === null) return;
      const index = Number(row.dataset.index);
      grown.current.add(index);
      measureElement(row);
      resizeItem(index, row.offsetHeight);
    },
    [measureElement, resizeItem],
  );
  const measureRow = (index: number) => (grown.current.has(index) ? measureElement : undefined);
  return { rowsRef, headTop, virtualizer, onValueOpened, measureRow };
}
