/**
 * A statement's items as DynamoDB lays them out: one dashed box per partition-key value (an item
 * collection), its items in sort-key order (rule B.9, docs/dynamodb-rules.md), the attributes as
 * columns. A SELECT whose WHERE fixes the partition key reads one box, as a Query does; one
 * without it is a Scan and returns boxes in the order it met them.
 *
 * The boxes and their rows are one virtualised list of lines (a box's head, then its rows), so a
 * result of thousands of items in hundreds of collections scrolls like one of ten. The list is a
 * grid and one Tab stop; the keys move a selected row through every box (`useResultCursor`).
 */
import type { Item } from "../../shared/attributeValue";
import { useId, useMemo, useRef, type CSSProperties } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { AttributeValue } from "../../ipc/bindings.gen";
import { attributeText, compareKeyValues, typeOf } from "../../shared/attributeValue";
import { formatCount } from "../../shared/format";
import { windowStyle } from "../../shared/virtualWindow";
import { useResultCursor } from "./useResultCursor";


/** One collection of the result: its partition-key value and its items in sort-key order. */
export type ResultBox = { value: AttributeValue; items: Item[] };

/** A box head's, a row's and the column header's heights in px (`.pq-box-head`, `.pq-box-row`, `.pq-collections-head` in partiql.css). */
const HEAD = 34;
const ROW = 28;
const HEADER = 28;

/**
 * The result's collections, in the order their first items came back; each box's items in
 * sort-key order. Items without the partition key (a projection that left it out) are `loose`.
 */
export function resultBoxes(items: readonly Item[], partitionKey: string, sortKey: string | null): { boxes: ResultBox[]; loose: number } {
  const byKey = new Map<string, ResultBox>();
  let loose = 0;
  for (const item of items) {
    const value = item[partitionKey];
    if (value === undefined) {
      loose += 1;
      continue;
    }
    const key = JSON.stringify(value);
    const box = byKey.get(key);
    if (box === undefined) byKey.set(key, { value, items: [item] });
    else box.items.push(item);
  }
  const boxes = [...byKey.values()];
  if (sortKey !== null) {
    for (const box of boxes) {
      box.items.sort((a, b) => {
        const x = a[sortKey];
        const y = b[sortKey];
        if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
        return compareKeyValues(x, y);
      });
    }
  }
  return { boxes, loose };
}

type Line = { kind: "head"; box: ResultBox } | { kind: "row"; item: Item; last: boolean };

export function ResultCollections({ items, keys }: { items: readonly Item[]; keys: readonly string[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  const partitionKey = keys[0] ?? null;
  const sortKey = keys[1] ?? null;
  const grouped = useMemo(() => (partitionKey === null ? null : resultBoxes(items, partitionKey, sortKey)), [items, partitionKey, sortKey]);
  const lines = useMemo(() => {
    const out: Line[] = [];
    for (const box of grouped?.boxes ?? []) {
      out.push({ kind: "head", box });
      box.items.forEach((item, i) => out.push({ kind: "row", item, last: i === box.items.length - 1 }));
    }
    return out;
  }, [grouped]);
  // The line of each row (a box's head is a line and no row).
  const rowLines = useMemo(() => lines.flatMap((line, i) => (line.kind === "row" ? [i] : [])), [lines]);
  const columns = useMemo(() => {
    const seen = new Set<string>();
    for (const item of items) for (const name of Object.keys(item)) if (name !== partitionKey && name !== sortKey) seen.add(name);
    return [...seen];
  }, [items, partitionKey, sortKey]);
  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (lines[i]?.kind === "head" ? HEAD : ROW),
    overscan: 12,
    useFlushSync: false,
    // The sticky column header sits above the lines inside the same scroll element.
    scrollMargin: HEADER,
    scrollPaddingStart: HEADER,
  });
  const listId = useId();
  const lineId = (line: number) => `${listId}-line-${line}`;
  const cursor = useResultCursor({
    rows: rowLines.length,
    lineOf: (row) => rowLines[row] ?? 0,
    // Moving up onto a box's first row brings its head into sight with it.
    revealOf: (line, upward) => (upward && lines[line - 1]?.kind === "head" ? line - 1 : line),
    virtualizer,
    scroller,
    rowHeight: ROW,
    lineId,
    result: items,
  });

  if (partitionKey === null || grouped === null) {
    return (
      <p className="muted" data-testid="partiql-collections-unknown">
        The statement's table is not known here, so its items cannot be grouped into collections. The Items view lists them.
      </p>
    );
  }
  const template = `${sortKey === null ? "" : "14rem "}repeat(${Math.max(columns.length, 1)}, 10rem)`;
  return (
    <div className="pq-collections-wrap">
      <p className="muted pq-collections-caption" data-testid="partiql-collections-summary">
        {formatCount(grouped.boxes.length)} {grouped.boxes.length === 1 ? "collection" : "collections"} of {partitionKey}
        {sortKey !== null ? `, each in ${sortKey} order` : ": the table has no sort key, so each holds one item"}
        {grouped.loose > 0 && ` · ${formatCount(grouped.loose)} ${grouped.loose === 1 ? "item" : "items"} without ${partitionKey} (left out by the projection) not drawn`}
      </p>
      <div
        className="pq-collections"
        ref={scroller}
        role="grid"
        aria-label={`Results by ${partitionKey}`}
        tabIndex={0}
        aria-activedescendant={cursor.activeDescendant}
        onKeyDown={cursor.onKeyDown}
        style={{ "--pq-columns": template } as CSSProperties}
      >
        <div className="pq-box-row pq-collections-head" role="row">
          {sortKey !== null && <span role="columnheader">{sortKey}</span>}
          {columns.map((c) => (
            <span role="columnheader" key={c} title={c}>
              {c}
            </span>
          ))}
        </div>
        <div className="pq-collections-body" style={{ height: virtualizer.getTotalSize() }}>
          <div className="pq-collections-window" style={windowStyle(virtualizer)}>
            {virtualizer.getVirtualItems().map((v) => {
              const line = lines[v.index]!;
              if (line.kind === "head") {
                return (
                  <div key={v.index} className="pq-box-head" role="row" data-testid="partiql-box">
                    <div className="pq-box-head-inner" role="rowheader">
                      <span>
                        {partitionKey} = <strong className="pq-box-key">{attributeText(line.box.value)}</strong>
                      </span>
                      <span className="muted">
                        {formatCount(line.box.items.length)} {line.box.items.length === 1 ? "item" : "items"}
                      </span>
                    </div>
                  </div>
                );
              }
              return (
                <div
                  key={v.index}
                  id={lineId(v.index)}
                  className={`pq-box-row${line.last ? " pq-box-last" : ""}${v.index === cursor.selectedLine ? " partiql-row-selected" : ""}`}
                  role="row"
                  aria-selected={v.index === cursor.selectedLine}
                  data-testid="partiql-box-row"
                >
                  {sortKey !== null && <Cell value={line.item[sortKey]} head />}
                  {columns.map((c) => (
                    <Cell key={c} value={line.item[c]} name={c} />
                  ))}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}

function Cell({ value, name, head = false }: { value: AttributeValue | undefined; name?: string; head?: boolean }) {
  if (value === undefined) {
    return (
      <span role="gridcell" className="partiql-absent" title={name === undefined ? "absent" : `${name}: absent`}>
        —
      </span>
    );
  }
  return (
    <span
      role={head ? "rowheader" : "gridcell"}
      className={`${head ? "pq-box-sk " : ""}tv-${typeOf(value).toLowerCase()}`}
      title={`${name === undefined ? "" : `${name}: `}${typeOf(value)} ${attributeText(value)}`}
    >
      {attributeText(value)}
    </span>
  );
}
