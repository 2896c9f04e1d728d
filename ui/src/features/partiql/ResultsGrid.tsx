/**
 * The items a statement returned, as a grid with one column per attribute (the table's keys
 * first, then the others in the order first seen). Rows are virtualised, so a result of
 * thousands of items scrolls as smoothly as one of ten. The grid is one Tab stop; the keys move a
 * selected row through it (`useResultCursor`).
 */
import { useId, useMemo, useRef, type CSSProperties } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { Item } from "../../shared/attributeValue";

import { attributeText, typeOf } from "../../shared/attributeValue";
import { windowStyle } from "../../shared/virtualWindow";
import { useResultCursor } from "./useResultCursor";


/** A row's height in px (`.partiql-grid-row` in partiql.css). */
const ROW_HEIGHT = 28;
/** How many rows a column's width is read from: enough for any page, bounded for a huge result. */
const WIDTH_SAMPLE = 2000;

/** The columns of a result: `keys` first (when present), then every other name as first seen. */
export function resultColumns(items: readonly Item[], keys: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const item of items) for (const name of Object.keys(item)) seen.add(name);
  const first = keys.filter((k) => seen.has(k));
  return [...first, ...[...seen].filter((n) => !first.includes(n))];
}

/**
 * The grid's column template: the row number, then each column as wide as its name or its longest
 * value in the first rows (6 to 40 characters; longer values end in "…" with the whole value on
 * hover), so a sort key such as `TS#2025-03-14T08:00:00Z` is read whole.
 */
export function resultTemplate(items: readonly Item[], columns: readonly string[]): string {
  const widths = columns.map((name) => {
    let chars = 6;
    for (let i = 0; i < Math.min(items.length, WIDTH_SAMPLE); i++) {
      const value = items[i]![name];
      if (value !== undefined) chars = Math.max(chars, attributeText(value).length);
    }
    // About 0.62 em a character of a value and 0.7 em of the bold name, and 1 em of padding.
    const em = Math.max(Math.min(40, chars) * 0.62, Math.min(40, name.length) * 0.7);
    return `${Math.ceil(em + 1)}em`;
  });
  return `3.5rem ${widths.length === 0 ? "12rem" : widths.join(" ")}`;
}

export function ResultsGrid({ items, keys }: { items: readonly Item[]; keys: readonly string[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  const columns = useMemo(() => resultColumns(items, keys), [items, keys]);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    useFlushSync: false,
    // The sticky header row sits above the rows inside the same scroll element: a row brought into
    // sight from below stops under it.
    scrollMargin: ROW_HEIGHT,
    scrollPaddingStart: ROW_HEIGHT,
  });
  const gridId = useId();
  const rowId = (index: number) => `${gridId}-row-${index}`;
  const cursor = useResultCursor({ rows: items.length, virtualizer, scroller, rowHeight: ROW_HEIGHT, lineId: rowId, result: items });
  // One template for every row (each laid out on its own), so the rows line up with the header.
  const template = useMemo(() => resultTemplate(items, columns), [items, columns]);
  return (
    <div
      className="partiql-grid"
      ref={scroller}
      role="grid"
      aria-label="Statement results"
      aria-rowcount={items.length + 1}
      tabIndex={0}
      aria-activedescendant={cursor.activeDescendant}
      onKeyDown={cursor.onKeyDown}
      style={{ "--partiql-columns": template } as CSSProperties}
    >
      <div className="partiql-grid-row partiql-grid-head" role="row">
        <span role="columnheader">#</span>
        {columns.map((c) => (
          <span role="columnheader" key={c} title={c}>
            {c}
          </span>
        ))}
      </div>
      <div className="partiql-grid-body" style={{ height: virtualizer.getTotalSize() }}>
        <div style={windowStyle(virtualizer)}>
          {virtualizer.getVirtualItems().map((row) => {
            const item = items[row.index];
            return (
              <div
                key={row.key}
                id={rowId(row.index)}
                className={`partiql-grid-row${row.index === cursor.selected ? " partiql-row-selected" : ""}`}
                role="row"
                aria-rowindex={row.index + 2}
                aria-selected={row.index === cursor.selected}
                data-testid="partiql-row"
              >
                <span role="gridcell" className="muted">
                  {row.index + 1}
                </span>
                {columns.map((c) => {
                  const value = item?.[c];
                  return (
                    <span role="gridcell" key={c} className={value === undefined ? "partiql-absent" : `tv-${typeOf(value).toLowerCase()}`} title={value === undefined ? "absent" : `${typeOf(value)}: ${attributeText(value)}`}>
                      {value === undefined ? "" : attributeText(value)}
                    </span>
                  );
                })}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
