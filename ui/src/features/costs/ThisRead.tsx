/**
 * "This read": the last read of the query bar summed up beside the boxes it read, so the cost of
 * a read is seen where its items are. A Query: the one collection it reads, the items it read and
 * returned, what its pages reported beside what the same pages were estimated to cost before it
 * ran, and what the same items would cost read another way (a Scan with a filter, one GetItem per
 * item). A Scan: how much of the table it has read and what that reported, beside the whole
 * scan's estimate. The figures are the backend's (`estimateQuery`, `statisticsScanCost`, and each
 * page's ConsumedCapacity); the Cost view has the working.
 */
import type { ReactNode } from "react";
import type { QueryEstimate, QueryInput, QueryPage, ReadWayKind } from "../../ipc/bindings.gen";
import { formatCount, formatCountOf, formatUnits } from "../../shared/format";
import { useScanCost, wholeScanUnits } from "../../shared/useScanCost";
import { useQueryEstimate } from "./useQueryEstimate";
import "./ThisRead.css";

export type ThisReadProps = {
  profileId: string;
  /** The read: a Query (with the input that ran) or a Scan, and the pages read so far. */
  read:
    | { kind: "query"; input: QueryInput; pages: QueryPage[]; loading: boolean }
    | { kind: "scan"; table: string; index: string | null; consistentRead: boolean; pages: QueryPage[]; running: boolean; completed: boolean };
  /** Opens the Cost view, where every figure is explained. */
  onDetails: () => void;
};

/** What the pages read so far returned, read and reported. */
function pageTotals(pages: readonly QueryPage[]) {
  return {
    returned: pages.reduce((n, p) => n + p.count, 0),
    read: pages.reduce((n, p) => n + p.scannedCount, 0),
    reported: pages.reduce((n, p) => n + (p.consumedCapacity?.total ?? 0), 0),
    reportedAll: pages.every((p) => p.consumedCapacity !== null),
  };
}

export function ThisRead({ profileId, read, onDetails }: ThisReadProps) {
  return (
    <aside className="side-card this-read" aria-label="This read" data-testid="this-read">
      <h3>This read</h3>
      {read.kind === "query" ? <QueryRead profileId={profileId} read={read} /> : <ScanRead profileId={profileId} read={read} />}
      <button type="button" className="link-button" onClick={onDetails} data-testid="this-read-details">
        How each figure is worked out
      </button>
    </aside>
  );
}

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </>
  );
}

/** The estimated units of the first `count` pages, in the consistency the Query asked for. */
function estimatedPages(estimate: QueryEstimate, count: number): number | null {
  const pages = estimate.query.find((q) => q.consistency === estimate.requested)?.pages ?? [];
  if (pages.length < count) return null;
  return pages.slice(0, count).reduce((n, p) => n + p.total, 0);
}

/** The units of reading the same items another way, in the consistency the Query asked for. */
function otherWay(estimate: QueryEstimate, way: ReadWayKind): { requests: number; units: number } | null {
  const found = estimate.alternatives.find((a) => a.way === way);
  const units = found === undefined ? null : estimate.requested === "strong" ? found.strong : found.eventual;
  return found === undefined || units === null ? null : { requests: found.requests, units };
}

function QueryRead({ profileId, read }: { profileId: string; read: Extract<ThisReadProps["read"], { kind: "query" }> }) {
  const { estimate } = useQueryEstimate(profileId, read.input, null);
  const totals = pageTotals(read.pages);
  const ready = estimate !== null && estimate.status === "ok" ? estimate.data : null;
  const estimated = ready === null ? null : estimatedPages(ready, read.pages.length);
  const matches = estimated !== null && totals.reportedAll && Math.abs(estimated - totals.reported) < 1e-9;
  const scan = ready === null ? null : otherWay(ready, "scanWithFilter");
  const gets = ready === null ? null : otherWay(ready, "getItems");
  const pagesText = formatCountOf(read.pages.length, "page");
  const whole = ready?.query.find((q) => q.consistency === ready.requested) ?? null;
  return (
    <>
      <dl>
        <Row label="operation">Query · 1 collection</Row>
        {read.input.index !== null && <Row label="of">{read.input.index}</Row>}
        <Row label="read / returned" testId="this-read-items">
          {formatCount(totals.read)} / {formatCount(totals.returned)} {totals.read === 1 ? "item" : "items"}
          {read.loading && " so far"}
        </Row>
        <Row label="reported" testId="this-read-reported">
          {totals.reportedAll ? `${formatUnits(totals.reported)} RCU · ${pagesText}` : "not reported here"}
        </Row>
        <Row label="estimated" testId="this-read-estimated">
          {estimate === null || estimate.status === "loading"
            ? "estimating…"
            : estimate.status === "error"
              ? "could not be estimated"
              : estimated === null
                ? "more pages than estimated"
                : (
                  <>
                    {formatUnits(estimated)} RCU ·{" "}
                    {/* The ✓ stays on the line of what it vouches for, never alone on a line of its own. */}
                    <span className="this-read-nowrap">
                      {pagesText}
                      {matches ? " ✓" : ""}
                    </span>
                  </>
                )}
        </Row>
        {whole !== null && ready !== null && (
          <Row label="whole Query" testId="this-read-whole">
            {formatUnits(whole.capacityUnits)} RCU · {formatCountOf(ready.itemCount, "item")}
          </Row>
        )}
      </dl>
      {(scan !== null || gets !== null) && (
        <>
          <h4>The same items read by</h4>
          <dl>
            {scan !== null && (
              <Row label="Scan + filter" testId="this-read-scan">
                {formatUnits(scan.units)} RCU
              </Row>
            )}
            {gets !== null && (
              <Row label={`${formatCount(gets.requests)} × GetItem`} testId="this-read-gets">
                {formatUnits(gets.units)} RCU
              </Row>
            )}
          </dl>
        </>
      )}
    </>
  );
}

function ScanRead({ profileId, read }: { profileId: string; read: Extract<ThisReadProps["read"], { kind: "scan" }> }) {
  const cost = useScanCost(profileId, read.table, read.index);
  const totals = pageTotals(read.pages);
  const whole = cost.status === "ok" ? wholeScanUnits(cost.data, read.consistentRead) : null;
  return (
    <dl>
      <Row label="operation">Scan · every collection</Row>
      {read.index !== null && <Row label="of">{read.index}</Row>}
      <Row label="read / returned" testId="this-read-items">
        {formatCount(totals.read)} / {formatCount(totals.returned)} {totals.read === 1 ? "item" : "items"}
        {read.running ? " so far" : read.completed ? "" : " (stopped)"}
      </Row>
      <Row label="reported" testId="this-read-reported">
        {totals.reportedAll ? `${formatUnits(totals.reported)} RCU · ${formatCountOf(read.pages.length, "page")}` : "not reported here"}
      </Row>
      <Row label="whole Scan" testId="this-read-estimated">
        {cost.status === "loading" ? "estimating…" : whole === null ? "could not be estimated" : `${formatUnits(whole)} RCU`}
      </Row>
    </dl>
  );
}
