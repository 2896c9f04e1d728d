/**
 * A box's rows on a grid: one line each, one height, the sort key first and every other
 * attribute after it, in columns as wide in every row (a grid template, not a table laid out from
 * its content: the rows of a box shown whole are drawn a few at a time as they scroll by, and a
 * table of 20 rows costs a layout of every cell each time a box comes into sight).
 */
import { useRef, type CSSProperties } from "react";
import type { AttributeValue, KeySchema } from "../../ipc/bindings.gen";
import { attributeText, valueTitle } from "../../shared/attributeValue";
import { scalarLook, TypedValue } from "../../shared/TypedValue";
import { Absent } from "../../shared/Absent";
import type { Item } from "../../shared/attributeValue";

/** A row's height in px (CollectionsView.css, `.grid-row`). */
export const GRID_ROW = 27;

/** What a column of an index's box holds, shown on its header. */
export type ColumnMark = { label: string; title: string };
export type Marks = ((name: string) => ColumnMark | null) | null;

/**
 * The columns, and the style that gives them to the rows: set once on the element around the
 * rows (the box's grid, or a box shown whole), which hands the template down to every row as a
 * custom property. A row then has no style of its own, so WebKit shares one computed style between
 * a box's rows instead of keeping a copy (with its grid tracks) for each row drawn.
 */
export type Grid = { columns: string[]; template: string; style: CSSProperties };

/**
 * The columns of the items read so far, in order of first appearance, less the keys; grown (never
 * reordered) as more items arrive, so rows already drawn keep their places.
 */
export function useGrid(keys: KeySchema, items: Item[]): Grid {
  const seen = useRef({ counted: 0, names: new Set<string>(), columns: [] as string[], sortKeyChars: 6, keys });
  const state = seen.current;
  if (items.length < state.counted || state.keys !== keys) {
    state.counted = 0;
    state.names.clear();
    state.columns = [];
    state.sortKeyChars = 6;
    state.keys = keys;
  }
  const skip = keys.partitionKey.name;
  const sortKey = keys.sortKey?.name ?? null;
  if (items.length > state.counted) {
    let columns = state.columns;
    for (let i = state.counted; i < items.length; i++) {
      const item = items[i]!;
      for (const name of Object.keys(item)) {
        if (name === skip || name === sortKey || state.names.has(name)) continue;
        state.names.add(name);
        columns = [...columns, name];
      }
      // The sort-key column is as wide as the longest value of the first pages.
      if (sortKey !== null && i < 2000) {
        const value = item[sortKey];
        if (value !== undefined) state.sortKeyChars = Math.max(state.sortKeyChars, attributeText(value).length);
      }
    }
    state.columns = columns;
    state.counted = items.length;
  }
  return gridOf(keys, state.columns, state.sortKeyChars);
}

/** The grid of these columns, the sort-key column as wide as `sortKeyChars` characters. */
export function gridOf(keys: KeySchema, columns: string[], sortKeyChars: number): Grid {
  // (The sort key and its name are drawn in a monospace face, about 0.62 em a character; the
  // column is never narrower than its name, so "recordedAt" stays whole over "META" and "TS#00".)
  const chars = Math.max(sortKeyChars, keys.sortKey?.name.length ?? 0);
  const sortKeyWidth = `${Math.ceil(Math.min(48, chars) * 0.62 + 1)}em`;
  const template = `${keys.sortKey === null ? "" : `${sortKeyWidth} `}repeat(${Math.max(1, columns.length)}, minmax(5.5rem, 1fr))`;
  return { columns, template, style: { "--grid-columns": template } as CSSProperties };
}

/** The column header row. */
export function GridHead({ keys, grid, marks }: { keys: KeySchema; grid: Grid; marks: Marks }) {
  const sortKey = keys.sortKey?.name ?? null;
  return (
    <div className="grid-row grid-head" role="row">
      {sortKey !== null && (
        <span role="columnheader" className="run-box-sk">
          {sortKey}
        </span>
      )}
      {grid.columns.map((name) => {
        const mark = marks?.(name) ?? null;
        return (
          <span role="columnheader" key={name} title={mark?.title}>
            {name}
            {mark !== null && (
              <span className="run-column-mark" data-testid="column-mark">
                {mark.label}
              </span>
            )}
          </span>
        );
      })}
    </div>
  );
}

/**
 * The cells of one item's row (the row element is the caller's); `rowHeaderPrefix` is read out
 * before the sort key by a screen reader, not shown.
 */
export function GridCells({ keys, grid, item, rowHeaderPrefix = null }: { keys: KeySchema; grid: Grid; item: Item; rowHeaderPrefix?: string | null }) {
  const sortKey = keys.sortKey?.name ?? null;
  return (
    <>
      {sortKey !== null && (
        <Cell role="rowheader" className="run-box-sk" value={item[sortKey]} prefix={rowHeaderPrefix} />
      )}
      {grid.columns.map((name) => (
        <Cell role="cell" key={name} className={null} value={item[name]} prefix={null} />
      ))}
    </>
  );
}

/** One cell: a scalar's look on the cell itself (one element, `scalarLook`), anything else inside it. */
function Cell({ role, className, value, prefix }: { role: string; className: string | null; value: AttributeValue | undefined; prefix: string | null }) {
  const look = value === undefined ? null : scalarLook(value);
  const classes = [className, look?.className].filter((c) => c != null).join(" ");
  return (
    <span role={role} className={classes === "" ? undefined : classes} title={valueTitle(value)}>
      {prefix !== null && <span className="sr-only">{prefix}</span>}
      {look !== null ? look.text : value === undefined ? <Absent /> : <TypedValue value={value} />}
    </span>
  );
}
