/**
 * What a Scan from the query bar met, in the Items view: the item collections in the order the
 * scan reached them (a Scan reads the table partition by partition, not in key order), with how
 * many of each one's items it returned; opening one queries that collection.
 */
import { useMemo } from "react";
import type { AttributeValue, TableDescription } from "../../ipc/bindings.gen";
import { attributeText } from "../../shared/attributeValue";
import { formatCount, formatCountOf } from "../../shared/format";
import type { ScanRunState } from "./useQueryModel";

/** Most collections listed. */
const SHOWN = 500;

export function ScanResults({
  table,
  run,
  onOpenCollection,
}: {
  table: TableDescription;
  run: ScanRunState;
  onOpenCollection: (value: AttributeValue) => void;
}) {
  const pk = run.request.indexName ? (table.indexes.find((i) => i.name === run.request.indexName)?.keys.partitionKey.name ?? null) : table.keys.partitionKey.name;
  const collections = useMemo(() => {
    const seen = new Map<string, { value: AttributeValue; items: number }>();
    for (const page of run.pages) {
      for (const item of page.items) {
        const value = pk === null ? undefined : item[pk];
        if (value === undefined) continue;
        const key = JSON.stringify(value);
        const entry = seen.get(key);
        if (entry === undefined) seen.set(key, { value, items: 1 });
        else entry.items += 1;
      }
    }
    return [...seen.values()];
  }, [run.pages, pk]);
  const scanned = run.pages.reduce((n, p) => n + p.scannedCount, 0);
  const returned = run.pages.reduce((n, p) => n + p.count, 0);
  return (
    <section className="scan-results" aria-label="Scan results" data-testid="scan-results">
      <h3>
        {formatCount(collections.length)} {collections.length === 1 ? "collection" : "collections"} met, in scan order
      </h3>
      {scanned > returned && (
        <p className="muted" data-testid="scan-dropped">
          {formatCountOf(scanned - returned, "item")} read but not returned: the filter dropped them after the read, and the scan paid for
          reading them.
        </p>
      )}
      <ul className="scan-collections">
        {collections.slice(0, SHOWN).map((c) => (
          <li key={JSON.stringify(c.value)}>
            <button type="button" className="table-link" onClick={() => onOpenCollection(c.value)}>
              {attributeText(c.value)}
            </button>
            <span className="muted"> · {formatCountOf(c.items, "item")}</span>
          </li>
        ))}
      </ul>
      {collections.length > SHOWN && <p className="muted">and {formatCount(collections.length - SHOWN)} more.</p>}
    </section>
  );
}
