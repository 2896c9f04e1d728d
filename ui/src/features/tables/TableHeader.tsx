/**
 * The head of a table's screen: its name, its key attributes as chips ("vehicleId S · partition"),
 * and one line of figures: items · size · collections · indexes · billing. Counts come from the
 * collection statistics when there are some (the embedded engine keeps them live), else from
 * DescribeTable (which AWS refreshes about every six hours).
 */
import type { CollectionStats, IndexSummary, Profile, TableDescription } from "../../ipc/bindings.gen";
import { formatBytes, formatCount } from "../../shared/format";

function billingText(table: TableDescription): string {
  if (table.billingMode === "PAY_PER_REQUEST") return "on-demand";
  const [read, write] = table.provisioned ?? [0, 0];
  return `provisioned ${formatCount(read)} RCU · ${formatCount(write)} WCU`;
}

function indexesText(indexes: IndexSummary[]): string {
  if (indexes.length === 0) return "no secondary index";
  return indexes.map((i) => `${i.kind === "global" ? "GSI" : "LSI"} ${i.name}`).join(", ");
}

export function TableHeader({ table, stats, profile }: { table: TableDescription; stats: CollectionStats | null; profile: Profile }) {
  // Partial statistics (a scan stopped by its budget) count only what it read: the table's own
  // figures then come from DescribeTable, and the collections are "at least" so many.
  const partial = stats?.scan != null && !stats.scan.complete;
  const counted = stats !== null && !partial ? stats : null;
  const items = counted?.itemCount ?? table.itemCount;
  const bytes = counted?.sizeBytes ?? table.sizeBytes;
  const { partitionKey, sortKey } = table.keys;
  return (
    <header className="table-screen-header">
      <h2>{table.name}</h2>
      <span className="key-chips" data-testid="table-key-chips">
        <span className="key-chip" title="Partition key: items with the same value form one item collection">
          {partitionKey.name} {partitionKey.type} · partition
        </span>
        {sortKey !== null && (
          <span className="key-chip" title="Sort key: the order of the items inside a collection">
            {sortKey.name} {sortKey.type} · sort
          </span>
        )}
      </span>
      <span className="table-figures muted" data-testid="table-figures">
        {formatCount(items)} {items === 1 ? "item" : "items"} · {formatBytes(bytes)}
        {stats !== null && (
          <>
            {" "}
            · {partial && "at least "}
            {formatCount(stats.distinctPartitionKeys)} {stats.distinctPartitionKeys === 1 && !partial ? "collection" : "collections"}
          </>
        )}{" "}
        · {indexesText(table.indexes)} · {billingText(table)}
      </span>
      <span className="table-connection muted">
        {profile.name} · {profile.region}
        {profile.readOnly && " · read-only"}
      </span>
    </header>
  );
}
