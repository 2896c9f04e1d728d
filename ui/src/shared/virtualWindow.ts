/**
 * How every virtualised list draws its rows in sight: one after another inside one element (the
 * window), itself moved down to where the first of them starts, inside an element as tall as all
 * the rows. A row is not moved to its own place with a style of its own: WebKit keeps a computed
 * style for every element that has one, so a long scroll left a copy for every row it drew (~15 MB
 * of the web process as a scroll of Fleet ended; bench/app/views.md), where rows without a style
 * share one.
 */
import type { CSSProperties } from "react";
import { measureElement, type Virtualizer } from "@tanstack/react-virtual";

/**
 * The window's style: moved to the first row in sight, counted from `origin` (the offset in the
 * scroll element where the rows' element starts: the virtualizer's scroll margin by default).
 */
export function windowStyle<S extends Element | Window, I extends Element>(virtualizer: Virtualizer<S, I>, origin = virtualizer.options.scrollMargin): CSSProperties {
  const first = virtualizer.getVirtualItems()[0];
  return { transform: `translateY(${first === undefined ? 0 : first.start - origin}px)` };
}

/**
 * The virtualiser's `measureElement` for a list inside a view that can be hidden (another view of
 * the table, or another table's tab, shown): hidden, nothing is laid out and every row would
 * measure 0, so that, shown again, the list would count all its rows in sight at once and ask for
 * what they hold (in the Collections view, a Query per box: read units, on AWS). While the list's
 * scroll element has no height, each row keeps the size it last measured.
 */
export function measureUnlessHidden<S extends Element, I extends Element>(
  scrollElement: () => Element | null,
): (element: I, entry: ResizeObserverEntry | undefined, instance: Virtualizer<S, I>) => number {
  return (element, entry, instance) => {
    const list = scrollElement();
    if (list !== null && list.clientHeight === 0) {
      const index = instance.indexFromElement(element);
      return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
    }
    return measureElement(element, entry, instance);
  };
}
