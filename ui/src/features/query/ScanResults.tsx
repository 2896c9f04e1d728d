/**
 * What a Scan from the query bar met, in the Items view: the item collections in the order the
 * scan reached them (a Scan reads the table partition by partition, not in key order), with how
 * many of each one's items it returned; opening one queries that collection.
 */
import { useMemo } from "react";
import type { AttributeValue } from "../../ipc/bindings.gen";
import { attributeText } from "../../shared/attributeValue";
import { collectionKey } from "../../shared/collectionValue";
import { formatCount, formatCountOf } from "../../shared/format";
import { SCAN_ITEMS_KEPT, type ScanRunState } from "./useQueryModel";

/** Most collections listed. */
const SHOWN = 500;

export function ScanResults({
  run,
  onOpenCollection,
}: {
  run: ScanRunState;
  onOpenCollection: (value: AttributeValue) => void;
}) {
  const collections = useMemo(() => [...run.met.values()], [run.met]);
  const scanned = run.pages.reduce((n, p) => n + p.scannedCount, 0);
  const returned = run.pages.reduce((n, p) => n + p.count, 0);
  return (
    <section className="scan-results" aria-label="Scan results" data-testid="scan-results">
      <h3>
        {formatCount(collections.length)} {collections.length === 1 ? "collection" : "collections"} met, in scan order
      </h3>
      {run.notKept > 0 && (
        <p className="muted" data-testid="scan-not-kept">
          The grid keeps the first {formatCountOf(SCAN_ITEMS_KEPT, "item")} returned; the other {formatCountOf(run.notKept, "item")} are counted
          here but not kept in the window. Export the table (Import/export) to have every item.
        </p>
      )}
      {scanned > returned && (
        <p className="muted" data-testid="scan-dropped">
          {formatCountOf(scanned - returned, "item")} read but not returned: the filter dropped them after the read, and the scan paid for
          reading them.
        </p>
      )}
      <ul className="scan-collections">
        {collections.slice(0, SHOWN).map((c) => (
          <li key={collectionKey(c.value)}>
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
