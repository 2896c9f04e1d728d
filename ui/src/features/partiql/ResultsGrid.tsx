/**
 * The items a statement returned, as a grid with one column per attribute (the table's keys
 * first, then the others in the order first seen). Rows are virtualised, so a result of
 * thousands of items scrolls as smoothly as one of ten.
 */
import { useMemo, useRef } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { AttributeValue } from "../../ipc/bindings.gen";

type Item = { [name: string]: AttributeValue };
import { attributeText, typeOf } from "../../shared/attributeValue";

const ROW_HEIGHT = 28;

/** The columns of a result: `keys` first (when present), then every other name as first seen. */
export function resultColumns(items: readonly Item[], keys: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const item of items) for (const name of Object.keys(item)) seen.add(name);
  const first = keys.filter((k) => seen.has(k));
  return [...first, ...[...seen].filter((n) => !first.includes(n))];
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
  });
  // Fixed column widths, so every row (each laid out on its own) lines up with the header.
  const template = `3.5rem repeat(${Math.max(columns.length, 1)}, 12rem)`;
  return (
    <div className="partiql-grid" ref={scroller} role="grid" aria-label="Statement results" aria-rowcount={items.length + 1}>
      <div className="partiql-grid-row partiql-grid-head" role="row" style={{ gridTemplateColumns: template }}>
        <span role="columnheader">#</span>
        {columns.map((c) => (
          <span role="columnheader" key={c} title={c}>
            {c}
          </span>
        ))}
      </div>
      <div className="partiql-grid-body" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => {
          const item = items[row.index];
          return (
            <div
              key={row.key}
              className="partiql-grid-row"
              role="row"
              aria-rowindex={row.index + 2}
              data-testid="partiql-row"
              style={{ gridTemplateColumns: template, transform: `translateY(${row.start}px)`, height: ROW_HEIGHT }}
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
  );
}
