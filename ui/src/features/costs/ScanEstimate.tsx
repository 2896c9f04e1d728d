/**
 * What a Scan from the query bar will cost, before it runs: every item of the table (or index)
 * read, in 1 MB pages, half a read unit per 4 KB eventually consistent and a whole one strongly
 * consistent (rules B.2 and B.4, docs/dynamodb-rules.md). A filter does not lower it: DynamoDB
 * filters after reading, and charges for what it read. The figures are the backend's
 * (`statisticsScanCost`, from DescribeTable's size on AWS, the live statistics on the embedded
 * engine).
 */
import { errorTitle } from "../../ipc/result";
import { useScanCost, wholeScanUnits } from "../../shared/useScanCost";
import { formatBytes, formatCountOf, formatUnits } from "../../shared/format";

export type ScanPlan = { table: string; index: string | null; consistentRead: boolean; filtered: boolean };

export function ScanEstimate({ profileId, plan }: { profileId: string; plan: ScanPlan }) {
  const cost = useScanCost(profileId, plan.table, plan.index);
  const target = plan.index ?? plan.table;
  return (
    <section className="estimate-panel" aria-label="Scan cost" data-testid="scan-estimate">
      <h3>Before it runs</h3>
      {cost.status === "loading" ? (
        <p className="muted" role="status">
          Estimating…
        </p>
      ) : cost.status === "error" ? (
        <p className="field-error" role="alert">
          {errorTitle(cost.error)}: {cost.error.message}
        </p>
      ) : (
        <>
          <p className="estimate-headline" data-testid="scan-estimate-units">
            <strong>{formatUnits(wholeScanUnits(cost.data, plan.consistentRead))} RCU</strong> to scan {target} whole,{" "}
            {plan.consistentRead ? "strongly consistent" : "eventually consistent"}
          </p>
          <p className="muted">
            {formatCountOf(cost.data.itemCount, "item")}, {formatBytes(cost.data.tableBytes)}, in {formatCountOf(cost.data.pages, "page")} of up to
            1 MB; {formatUnits(wholeScanUnits(cost.data, !plan.consistentRead))} RCU{" "}
            {plan.consistentRead ? "eventually consistent" : "strongly consistent"}. {cost.data.explanation}
          </p>
          {plan.filtered && (
            <p className="muted" data-testid="scan-estimate-filter">
              The filter does not lower this: DynamoDB reads every item, then drops those the filter refuses, and charges for all it read.
            </p>
          )}
        </>
      )}
    </section>
  );
}
