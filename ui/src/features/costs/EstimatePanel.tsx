/**
 * What a Query will cost before it runs — from the collection statistics, computed in Rust by the
 * rules the engine charges with — and, once it has run, the ConsumedCapacity it reported beside
 * the estimate with every difference explained.
 *
 * Shown: the units eventually and strongly consistent (a GSI: eventual only), the pages, the
 * first page in the consistency asked for, the same items read other ways (N GetItems,
 * BatchGetItem, TransactGetItems, a Scan with a filter) each with its reason, and where the sizes
 * came from. Nothing is computed here but layout.
 */
import type { QueryEstimate, QueryInput, QueryPage, ReadWayKind, Reconciliation, SizeSource } from "../../ipc/bindings.gen";
import { errorTitle } from "../../ipc/result";
import { formatBytes, formatCount, formatCountOf } from "../../shared/format";
import { Explanation, unitsText } from "./Explanation";
import { useQueryEstimate } from "./useQueryEstimate";
import "./EstimatePanel.css";

export type EstimatePanelProps = {
  profileId: string;
  /** The query about to run, or the one that produced `lastPage`. */
  query: QueryInput | null;
  /** The page the query returned, with its ConsumedCapacity; `null` before it runs. */
  lastPage: QueryPage | null;
  /** Called with each new estimate (the cost panel prices its units). */
  onEstimate?: (estimate: QueryEstimate) => void;
  /** The Query ran before the bar moved on: its estimate is headed in the past tense. */
  past?: boolean;
};

const WAY_LABELS: Record<ReadWayKind, string> = {
  query: "One Query",
  getItems: "N × GetItem",
  batchGetItem: "BatchGetItem",
  transactGetItems: "TransactGetItems",
  scanWithFilter: "Scan + filter",
};

export function sourceLabel(source: SizeSource): string {
  switch (source.kind) {
    case "liveStatistics":
      return "the embedded engine's live collection statistics";
    case "gatheredStatistics":
      return source.gatheredAt === null
        ? "the statistics a scan gathered"
        : `the statistics a scan gathered on ${new Date(source.gatheredAt * 1000).toLocaleString()}`;
    case "tableAverage":
      return "the table's averages (no statistics of this collection)";
  }
}

export function EstimatePanel({ profileId, query, lastPage, onEstimate, past = false }: EstimatePanelProps) {
  const { estimate, reconciled } = useQueryEstimate(profileId, query, lastPage, onEstimate);

  if (query === null) {
    return (
      <section className="estimate-panel" aria-label="Query cost">
        <p className="muted">Give the bar a partition-key value (a Query) or choose Scan to see what reading costs.</p>
      </section>
    );
  }
  return (
    <section className="estimate-panel" aria-label="Query cost">
      <h3>{past ? "Before it ran" : "Before it runs"}</h3>
      {estimate === null || estimate.status === "loading" ? (
        <p className="muted" role="status">
          Estimating…
        </p>
      ) : estimate.status === "error" ? (
        <p className="field-error" role="alert">
          {errorTitle(estimate.error)}: {estimate.error.message}
        </p>
      ) : (
        <EstimateFigures estimate={estimate.data} />
      )}
      {reconciled !== null && (
        <>
          <h3>After it ran</h3>
          {reconciled.status === "loading" ? (
            <p className="muted" role="status">
              Comparing with what DynamoDB reported…
            </p>
          ) : reconciled.status === "error" ? (
            <p className="field-error" role="alert">
              {errorTitle(reconciled.error)}: {reconciled.error.message}
            </p>
          ) : (
            <ReconciliationTable reconciliation={reconciled.data} />
          )}
        </>
      )}
    </section>
  );
}

function EstimateFigures({ estimate }: { estimate: QueryEstimate }) {
  const first = estimate.firstPage;
  const pages = estimate.query[0]?.pages.length ?? 0;
  return (
    <div className="estimate-figures">
      <p className="estimate-headline">
        <strong data-testid="first-page-units">{unitsText(first.total, first.exact)} RCU</strong> for the first page,{" "}
        {estimate.requested === "strong" ? "strongly" : "eventually"} consistent
        {first.indexes.length > 0 && (
          <span className="muted">
            {" "}
            ({first.table !== null && first.table > 0 ? `table ${unitsText(first.table)}, ` : ""}
            {first.indexes.map((i) => `${i.name} ${unitsText(i.units)}`).join(", ")})
          </span>
        )}
      </p>
      <p className="muted">
        {formatCountOf(estimate.itemCount, "item")}, {formatBytes(estimate.totalBytes)}, from {sourceLabel(estimate.source)} ·{" "}
        {pages === 1 ? "1 page" : `${pages} pages`}
      </p>
      <table className="estimate-table">
        <caption className="sr-only">The whole selection read by one Query, by consistency</caption>
        <thead>
          <tr>
            <th scope="col">Query to the end</th>
            <th scope="col">RCU</th>
            <th scope="col">Pages</th>
          </tr>
        </thead>
        <tbody>
          {estimate.query.map((q) => (
            <tr key={q.consistency}>
              <th scope="row">{q.consistency === "eventual" ? "Eventually consistent" : q.consistency === "strong" ? "Strongly consistent" : "Transactional"}</th>
              <td data-testid={`query-${q.consistency}`}>{unitsText(q.capacityUnits, q.exact)}</td>
              <td>{q.pages.length}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Explanation lines={estimate.lines} label="Why the Query costs this" />
      <h4>The same items, other ways</h4>
      <table className="estimate-table ways">
        <thead>
          <tr>
            <th scope="col">Way</th>
            <th scope="col">Requests</th>
            <th scope="col">Eventual</th>
            <th scope="col">Strong</th>
            <th scope="col">Transactional</th>
          </tr>
        </thead>
        <tbody>
          {estimate.alternatives.map((way) => (
            <WayRow key={way.way} way={way} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function WayRow({ way }: { way: QueryEstimate["alternatives"][number] }) {
  return (
    <>
      <tr data-testid={`way-${way.way}`}>
        <th scope="row">{WAY_LABELS[way.way]}</th>
        <td>{formatCount(way.requests)}</td>
        <td>{unitsText(way.eventual, way.exact)}</td>
        <td>{unitsText(way.strong, way.exact)}</td>
        <td>{unitsText(way.transactional, way.exact)}</td>
      </tr>
      <tr className="way-reason">
        <td colSpan={5}>
          <Explanation lines={way.lines} label={`Why ${WAY_LABELS[way.way]} costs this`} />
          {way.blocksRange !== null && (
            <span className="muted">
              Between {formatCount(way.blocksRange[0])} and {formatCount(way.blocksRange[1])} blocks of 4 KB, whatever the items' individual sizes.
            </span>
          )}
        </td>
      </tr>
    </>
  );
}

/** The estimate beside what was reported, row by row, and why they differ. */
export function ReconciliationTable({ reconciliation }: { reconciliation: Reconciliation }) {
  return (
    <div className="reconciliation">
      <p className={reconciliation.matches ? "reconcile-match" : "reconcile-differs"} role="status">
        {reconciliation.matches ? "The reported capacity equals the estimate." : "The reported capacity differs from the estimate:"}
      </p>
      <table className="estimate-table">
        <thead>
          <tr>
            <th scope="col">Charged to</th>
            <th scope="col">Estimated</th>
            <th scope="col">Reported</th>
            <th scope="col">Difference</th>
          </tr>
        </thead>
        <tbody>
          {reconciliation.rows.map((row) => (
            <tr key={row.target} data-testid={`reconcile-${row.target}`}>
              <th scope="row">{row.target}</th>
              <td>{unitsText(row.estimated)}</td>
              <td>{unitsText(row.actual)}</td>
              <td className={row.difference !== null && row.difference !== 0 ? "differs" : undefined}>
                {row.difference === null ? "—" : row.difference > 0 ? `+${unitsText(row.difference)}` : unitsText(row.difference)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Explanation lines={reconciliation.lines} label="Why they differ" />
    </div>
  );
}
