/**
 * The rows of one box virtualised in the run's own scroll (a box shown whole, the box a Query
 * read): where the rows start in the run (the box's slot plus the box's header and column
 * header), the height of the box's header (the column header stays in sight under it), and the
 * virtualizer over the rows with that scroll margin.
 */
import { useLayoutEffect, useRef, useState } from "react";
import { useVirtualizer, type Virtualizer } from "@tanstack/react-virtual";
import type { CSSProperties } from "react";

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
  return { rowsRef, headTop, virtualizer };
}

/**
 * Where the rows drawn start inside the box's rows (the element `rowsRef` holds, as tall as all
 * of them): the rows in sight are drawn one after another inside one element moved this far down,
 * not each moved to its own place, so no row carries a style of its own (WebKit then shares one
 * computed style between them, where a style per row kept a copy for every row drawn).
 */
export function windowStyle(virtualizer: Virtualizer<HTMLElement, Element>): CSSProperties {
  const first = virtualizer.getVirtualItems()[0];
  const shift = first === undefined ? 0 : first.start - virtualizer.options.scrollMargin;
  return { transform: `translateY(${shift}px)` };
}
