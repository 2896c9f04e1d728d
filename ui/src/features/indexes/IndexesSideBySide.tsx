/**
 * The base table and each secondary index as columns of item collections over the same items,
 * as the backend laid them out (`indexes_side_by_side`): each column grouped by its own partition
 * key, in its own sort order. Selecting an item highlights it in every column; an item a sparse
 * index does not hold is listed under that column with the reason (the key attribute it lacks).
 * Each index column states its projection and what a Query on it returns. On tables with an LSI,
 * the base collections carry their size against the 10 GB item-collection limit.
 *
 * Keyboard: each column's items (its collections' and those not in it) are one Tab stop, a roving
 * tabindex: the item last focused in the column, else the selected one, else the first; ↑/↓ move
 * to the previous or next item of the column, Home and End to its first and last.
 */
import { useState, type KeyboardEvent } from "react";
import type { CollectionGauge, IndexesSideBySide as Layout, KeySchema, ViewColumn, ViewItem } from "../../ipc/bindings.gen";
import type { Item } from "../../shared/attributeValue";
import { TypedValue } from "../../shared/TypedValue";
import { attributeText } from "../../shared/attributeValue";
import { formatBytes, formatCount, formatCountOf, formatFineShare } from "../../shared/format";
import "../explorer/CollectionBox.css";
import "./IndexesSideBySide.css";
import { keyAttributes } from "../../shared/keySchema";
import { projectionText } from "../../shared/projection";

/** What the last query from this view read: which column's collection and which items. */
/** Under this share of the limit a gauge's bar (6rem wide) fills less than a pixel: a mark is drawn instead. */
const MIN_DRAWN_FRACTION = 0.01;

export type CollectionRead = {
  column: number;
  collection: number;
  itemIds: number[];
  units: number | null;
};

export type IndexesSideBySideProps = {
  layout: Layout;
  selected: number | null;
  onSelect: (itemId: number | null) => void;
  /** Query one index collection (absent: no query buttons). */
  onQueryCollection?: (column: number, collection: number) => void;
  lastRead?: CollectionRead | null;
};

/** An item's base-table key as a person says it: partition-key value, then sort-key value (the
 * key map itself comes in name order, which put "TS#… · VEH#…" for Telemetry). */
export function itemLabel(item: ViewItem, tableKeys: KeySchema): string {
  return keyAttributes(tableKeys)
    .map((key) => item.key[key.name])
    .filter((value) => value !== undefined)
    .map((value) => attributeText(value))
    .join(" · ");
}

export function projectionLabel(column: ViewColumn): string {
  const p = column.projection;
  // The table holds every attribute of its items, as an index projecting ALL does.
  return p === null ? "All attributes" : projectionText(p);
}

function columnTitle(column: ViewColumn): string {
  if (column.index === null) return "Table";
  return `${column.kind === "local" ? "LSI" : "GSI"} ${column.index}`;
}

/** Moves the focus among a column's items with the arrow keys, Home and End. */
function moveInColumn(event: KeyboardEvent<HTMLElement>) {
  const target = event.target as HTMLElement;
  if (!target.classList.contains("side-entry") || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const entries = [...event.currentTarget.querySelectorAll<HTMLElement>("button.side-entry")];
  const at = entries.indexOf(target);
  const next = { ArrowUp: at - 1, ArrowDown: at + 1, Home: 0, End: entries.length - 1 }[event.key];
  if (next === undefined) return;
  event.preventDefault();
  entries[Math.max(0, Math.min(entries.length - 1, next))]?.focus();
}

export function IndexesSideBySide({ layout, selected, onSelect, onQueryCollection, lastRead = null }: IndexesSideBySideProps) {
  // The item last focused in each column (by its id): that column's Tab stop.
  const [focused, setFocused] = useState<ReadonlyMap<number, number>>(new Map());
  const tabStop = (c: number, column: ViewColumn): number | undefined => {
    const ids = [...column.collections.flatMap((k) => k.entries.map((e) => e.itemId)), ...column.absent.map((a) => a.itemId)];
    const last = focused.get(c);
    if (last !== undefined && ids.includes(last)) return last;
    return selected !== null && ids.includes(selected) ? selected : ids[0];
  };
  const onFocusEntry = (c: number, itemId: number) =>
    setFocused((f) => {
      if (f.get(c) === itemId) return f;
      const next = new Map(f);
      next.set(c, itemId);
      return next;
    });
  const gauges = layout.collectionLimits;
  const gaugeOf = (value: Item[string]): CollectionGauge | undefined =>
    gauges?.collections.find((g) => JSON.stringify(g.partitionValue) === JSON.stringify(value));
  return (
    <div className="side-by-side" style={{ gridTemplateColumns: `repeat(${layout.columns.length}, minmax(14rem, 1fr))` }}>
      {layout.columns.map((column, c) => {
        const stop = tabStop(c, column);
        return (
          <section key={column.index ?? "table"} className="side-column" aria-label={columnTitle(column)} onKeyDown={moveInColumn}>
            <header className="side-column-header">
              <h3>{columnTitle(column)}</h3>
              <p className="muted">
                Key: {column.keys.partitionKey.name}
                {column.keys.sortKey !== null && ` / ${column.keys.sortKey.name}`}
              </p>
              <p>
                Projection: <span className="side-projection">{projectionLabel(column)}</span>
              </p>
              <p className="muted" data-testid={`returns-${column.index ?? "table"}`}>
                A Query returns: {column.queryReturns.length === 0 ? "nothing shown here" : column.queryReturns.join(", ")}
              </p>
              <p className="muted side-note">{column.queryNote}</p>
            </header>
            {column.collections.map((collection, k) => {
              const gauge = c === 0 ? gaugeOf(collection.partitionValue) : undefined;
              const read = lastRead !== null && lastRead.column === c && lastRead.collection === k;
              return (
                <div
                  key={k}
                  className={`collection-box side-collection${read ? " side-read" : ""}`}
                  aria-label={`${column.keys.partitionKey.name} = ${attributeText(collection.partitionValue)}`}
                  role="group"
                >
                  <div className="collection-heading">
                    <span className="collection-pk-name">{column.keys.partitionKey.name}</span>
                    <span className="collection-pk-value">
                      <TypedValue value={collection.partitionValue} />
                    </span>
                    {column.index !== null && onQueryCollection !== undefined && (
                      <button type="button" className="side-query" onClick={() => onQueryCollection(c, k)}>
                        Query
                      </button>
                    )}
                  </div>
                  {read && lastRead !== null && (
                    <p className="side-read-note" role="status">
                      Read by the last query: {formatCountOf(lastRead.itemIds.length, "item")}
                      {lastRead.units !== null && `, ${lastRead.units} RCU`}
                    </p>
                  )}
                  {gauges !== null && gauge !== undefined && (
                    <div className={`side-gauge${gauge.warning ? " side-gauge-warning" : ""}`}>
                      <span className="side-gauge-bar">
                        <meter
                          min={0}
                          max={gauges.limitBytes}
                          high={gauges.limitBytes * gauges.warningFraction}
                          optimum={0}
                          value={gauge.sizeBytes}
                          aria-label={`Collection size against the ${formatBytes(gauges.limitBytes)} limit`}
                        />
                        {/* A share too small to fill a pixel of the bar is still drawn: a thin mark at its start. */}
                        {gauge.sizeBytes > 0 && gauge.fraction < MIN_DRAWN_FRACTION && (
                          <span className="side-gauge-mark" aria-hidden="true" data-testid="side-gauge-mark" />
                        )}
                      </span>
                      <span data-testid="side-gauge-figure" title={`${formatCount(gauge.sizeBytes)} bytes of ${formatCount(gauges.limitBytes)}`}>
                        {formatBytes(gauge.sizeBytes)} of {formatBytes(gauges.limitBytes)} ({formatFineShare(gauge.sizeBytes, gauges.limitBytes)})
                        {gauge.warning && " — near the item-collection limit"}
                      </span>
                    </div>
                  )}
                  <ul className="side-entries">
                    {collection.entries.map((entry) => {
                      const item = layout.items[entry.itemId];
                      const isSelected = selected === entry.itemId;
                      const wasRead = read && lastRead !== null && lastRead.itemIds.includes(entry.itemId);
                      return (
                        <li key={entry.itemId}>
                          <button
                            type="button"
                            aria-pressed={isSelected}
                            className={`side-entry${isSelected ? " selected" : ""}${wasRead ? " side-entry-read" : ""}`}
                            data-item={entry.itemId}
                            tabIndex={entry.itemId === stop ? 0 : -1}
                            onFocus={() => onFocusEntry(c, entry.itemId)}
                            onClick={() => onSelect(isSelected ? null : entry.itemId)}
                            title={`${formatBytes(entry.sizeBytes)} · ${Object.keys(entry.projected).join(", ")}`}
                          >
                            <span className="side-sort">{entry.sortValue === null ? "—" : attributeText(entry.sortValue)}</span>
                            {column.index !== null && item !== undefined && <span className="muted side-base">{itemLabel(item, layout.columns[0]!.keys)}</span>}
                          </button>
                        </li>
                      );
                    })}
                  </ul>
                </div>
              );
            })}
            {column.absent.length > 0 && (
              <div className="side-absent" role="group" aria-label={`Not in ${columnTitle(column)}`}>
                <h4>Not in this index ({column.absent.length})</h4>
                <ul>
                  {column.absent.map((absent) => {
                    const item = layout.items[absent.itemId];
                    const isSelected = selected === absent.itemId;
                    return (
                      <li key={absent.itemId}>
                        <button
                          type="button"
                          aria-pressed={isSelected}
                          className={`side-entry side-entry-absent${isSelected ? " selected" : ""}`}
                          data-item={absent.itemId}
                          tabIndex={absent.itemId === stop ? 0 : -1}
                          onFocus={() => onFocusEntry(c, absent.itemId)}
                          onClick={() => onSelect(isSelected ? null : absent.itemId)}
                        >
                          <span>{item === undefined ? `#${absent.itemId}` : itemLabel(item, layout.columns[0]!.keys)}</span>
                          <span className="side-reason">{absent.reason}</span>
                        </button>
                      </li>
                    );
                  })}
                </ul>
              </div>
            )}
          </section>
        );
      })}
    </div>
  );
}
