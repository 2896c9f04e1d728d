import type { KeySchema, TableDescription } from "../../ipc/bindings.gen";
import { formatBytes, formatCount, formatCountOf } from "../../shared/format";
import { projectionText } from "../../shared/projection";
import "./tables.css";

function keyText(keys: KeySchema): string {
  const pk = `${keys.partitionKey.name} (${keys.partitionKey.type}, partition)`;
  return keys.sortKey === null ? pk : `${pk} + ${keys.sortKey.name} (${keys.sortKey.type}, sort)`;
}


/** What DescribeTable says about a table, laid out as DynamoDB defines it. */
export function TableOverview({ table }: { table: TableDescription }) {
  const capacity =
    table.billingMode === "PAY_PER_REQUEST"
      ? "On-demand (PAY_PER_REQUEST)"
      : `Provisioned: ${table.provisioned?.[0] ?? 0} RCU, ${table.provisioned?.[1] ?? 0} WCU`;
  return (
    <section className="table-overview" aria-label={`Table ${table.name}`}>
      <dl className="facts">
        <dt>Primary key</dt>
        <dd data-testid="table-keys">{keyText(table.keys)}</dd>
        <dt>Items</dt>
        <dd data-testid="table-count">
          {formatCountOf(table.itemCount, "item")} · {formatBytes(table.sizeBytes)}
        </dd>
        <dt>Capacity</dt>
        <dd>{capacity}</dd>
        <dt>Attribute definitions</dt>
        <dd>{table.attributeDefinitions.map((a) => `${a.name} (${a.type})`).join(", ")}</dd>
        <dt>Stream</dt>
        <dd>{table.streamViewType === null ? "Off" : `On · ${table.streamViewType}`}</dd>
        <dt>Time to live</dt>
        <dd>{table.ttlAttribute === null ? "Off" : `On · attribute ${table.ttlAttribute}`}</dd>
        <dt>Status</dt>
        <dd>{table.status}</dd>
      </dl>
      <h3>Indexes</h3>
      {table.indexes.length === 0 ? (
        <p className="muted">No secondary indexes.</p>
      ) : (
        <table className="index-table">
          <thead>
            <tr>
              <th scope="col">Index</th>
              <th scope="col">Type</th>
              <th scope="col">Keys</th>
              <th scope="col">Projection</th>
              <th scope="col">Items</th>
            </tr>
          </thead>
          <tbody>
            {table.indexes.map((index) => (
              <tr key={index.name} data-testid={`index-${index.name}`}>
                <th scope="row">{index.name}</th>
                <td>{index.kind === "global" ? "GSI" : "LSI"}</td>
                <td>{keyText(index.keys)}</td>
                <td>{projectionText(index.projection)}</td>
                <td>{index.itemCount === null ? "–" : formatCount(index.itemCount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
