import type { ExportEstimate, QueryInput, TransferProgress } from "../../ipc/bindings.gen";
import { errorTitle } from "../../ipc/result";
import { formatBytes, formatCount, formatCountOf, formatUnits } from "../../shared/format";
import { CsvImportPreview } from "./CsvImportPreview";
import { FORMATS, tauriChannel, useTransfer, type Budget, type ProgressChannelFactory } from "./useTransfer";

export type { ProgressChannelFactory } from "./useTransfer";

/**
 * Export the table or the current query to a file, and import a file into the table, after
 * seeing what each will cost; an export can be given a read budget; a CSV file to import is
 * previewed with each column's type, which can be changed. Both show a progress bar and can be
 * cancelled. Files come only from the system's dialog: the web view never holds a path.
 */
export function TransferPanel({
  profileId,
  table,
  query,
  readOnly,
  makeChannel = tauriChannel,
}: {
  profileId: string;
  table: string;
  query: QueryInput | null;
  readOnly: boolean;
  makeChannel?: ProgressChannelFactory | undefined;
}) {
  const t = useTransfer({ profileId, table, query, makeChannel });
  const busy = t.running !== null;
  return (
    <section className="transfer-panel" aria-label="Import and export">
      <div className="scan-controls">
        <label>
          Format
          <select value={t.format} onChange={(e) => t.setFormat(e.target.value as typeof t.format)} disabled={busy}>
            {FORMATS.map((f) => (
              <option key={f.format} value={f.format}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => void t.choose("open")} disabled={busy || readOnly}>
          Choose a file to import…
        </button>
        <button type="button" onClick={() => void t.choose("save")} disabled={busy}>
          Export to…
        </button>
      </div>
      <div className="scan-controls">
        <label>
          Export
          <select value={t.what} onChange={(e) => t.setWhat(e.target.value as "table" | "query")} disabled={busy}>
            <option value="table">the whole table (a scan)</option>
            <option value="query" disabled={query === null}>
              every page of the current query
            </option>
          </select>
        </label>
        <label>
          Read budget (RCU)
          <input
            type="number"
            min={0}
            step="any"
            inputMode="decimal"
            placeholder="none"
            value={t.budgetText}
            onChange={(e) => t.setBudgetText(e.target.value)}
            disabled={busy}
            aria-invalid={t.budget.problem !== null}
          />
        </label>
        <button
          type="button"
          onClick={() => void t.exportItems()}
          disabled={busy || t.exportFile === null || t.mustConfirmReplace || t.budget.problem !== null}
        >
          {t.exportFile === null ? "Export" : `Export to ${t.exportFile.name}`}
        </button>
        <button type="button" onClick={() => void t.estimateTheImport()} disabled={busy || !t.importReady || readOnly}>
          Estimate the import
        </button>
        <button type="button" onClick={() => void t.importItems()} disabled={busy || t.estimate === null || readOnly}>
          Import
        </button>
        {busy && (
          <button type="button" onClick={t.cancel}>
            Cancel
          </button>
        )}
      </div>
      <p className="muted" data-testid="transfer-files">
        {t.importFile === null ? "No file chosen to import." : `Import from ${t.importFile.name}.`}{" "}
        {t.exportFile === null ? "No file chosen to export to." : `Export to ${t.exportFile.name}.`}
      </p>
      {t.format === "csv" && <CsvTypes />}
      {t.format === "csv" && t.preview !== null && (
        <CsvImportPreview preview={t.preview} types={t.columnTypes} onChange={t.setColumnType} disabled={busy || readOnly} />
      )}
      {t.dropped !== null && (
        <p className="muted" role="status" data-testid="transfer-files-dropped">
          {t.dropped}
        </p>
      )}
      {t.budget.problem !== null && (
        <p className="status-error" role="alert">
          {t.budget.problem}
        </p>
      )}
      {t.exportEstimate !== null && <ExportCost estimate={t.exportEstimate} budget={t.budget} />}
      {t.mustConfirmReplace && t.exportFile !== null && (
        <div role="alertdialog" aria-label="Replace the file" className="confirm-inline">
          <p>{t.exportFile.name} already exists. Exporting replaces it when the export is complete.</p>
          <button type="button" className="danger" onClick={t.confirmReplace}>
            Replace {t.exportFile.name}
          </button>
          <button type="button" onClick={() => void t.choose("save")}>
            Choose another file…
          </button>
        </div>
      )}
      {readOnly && <p className="muted">This connection is read-only: importing is off.</p>}
      {t.estimate !== null && (
        <p data-testid="import-estimate">
          Importing {formatCountOf(t.estimate.items, "item")} takes {formatCountOf(t.estimate.requests, "BatchWriteItem request")} and{" "}
          <strong>{formatUnits(t.estimate.capacityUnits)} WCU</strong> ({formatUnits(t.estimate.tableUnits)} for the table
          {t.estimate.indexes.map((i) => `, ${formatUnits(i.units)} for ${i.name}`).join("")}).
        </p>
      )}
      {busy && <ProgressBar progress={t.progress} />}
      {t.done !== null && (
        <p className="test-ok" data-testid="transfer-done">
          {t.done}
        </p>
      )}
      {t.error !== null && (
        <p className="status-error" role="alert">
          {errorTitle(t.error)}: {t.error.message}
        </p>
      )}
    </section>
  );
}

/**
 * What a CSV import writes and a CSV export holds, said before either runs. The file is read in the
 * backend: the types are inferred there (and shown in the preview), never guessed from cells here.
 */
function CsvTypes() {
  return (
    <div className="muted" data-testid="csv-types">
      <p>
        Importing CSV, each column has a type, shown with the file's first rows once it is chosen: a key attribute of the table or of an index
        has its key schema's type; a header that names a type gives it, as in <code>Age (N)</code>, <code>active (BOOL)</code> or{" "}
        <code>Name (S)</code>; any other column's type is inferred from the first rows: N when every non-empty cell is a number, written
        exactly as the file spells it; BOOL when every one is true or false; S otherwise. Change a column's type, or skip it, before importing.
        A cell that does not fit its column's type stops the import with nothing imported; an empty cell leaves the attribute out.
      </p>
      <p>
        Exporting CSV, a column whose values all have one type (S, N or BOOL) is written as plain text with that type in its header; a column
        of mixed or other types (sets, maps, lists, binary) is written as DynamoDB JSON, cell by cell, so that it reads back exactly.
      </p>
    </div>
  );
}

/** What the export will read and cost, and how far the budget goes. */
function ExportCost({ estimate, budget }: { estimate: ExportEstimate; budget: Budget }) {
  if (estimate.sizeUnknown) {
    return (
      <div data-testid="export-estimate">
        <p>
          The cost of this export is not known before it starts: DescribeTable reports a size of 0 bytes, so the table may be empty or its size
          not refreshed yet (AWS refreshes it about every six hours; some local emulators never do).{" "}
          {budget.units === null
            ? "Set a read budget to bound what the export may consume."
            : `The export stops once it has consumed the budget of ${formatUnits(budget.units)} RCU.`}
        </p>
      </div>
    );
  }
  const short = budget.units !== null && budget.units < estimate.capacityUnits;
  return (
    <div data-testid="export-estimate">
      <p>
        Exporting reads about {formatCountOf(estimate.items, "item")} ({formatBytes(estimate.bytes)}) in {formatCount(estimate.pages)}{" "}
        {estimate.pages === 1 ? "page" : "pages"}: at most <strong>{formatUnits(estimate.capacityUnits)} RCU</strong>, eventually consistent.
        {estimate.approximate && " DescribeTable's item count and size are refreshed about every six hours, so the table may hold more or less than this."}
      </p>
      {short && budget.units !== null && (
        <p className="muted" data-testid="export-budget">
          The budget of {formatUnits(budget.units)} RCU covers about {Math.floor((100 * budget.units) / estimate.capacityUnits)} % of that: the export
          stops once it has consumed the budget, and the file then holds the items read until then.
        </p>
      )}
    </div>
  );
}

const STAGE_LABEL: Record<TransferProgress["stage"], string> = {
  checking: "Checking the file",
  transferring: "Transferring",
  finishing: "Writing the CSV rows",
};

/** A bar against the expected count when there is one; an indeterminate bar until then. */
function ProgressBar({ progress }: { progress: TransferProgress | null }) {
  const expected = progress?.expectedItems ?? null;
  const known = progress !== null && expected !== null && expected > 0 && progress.items <= expected;
  return (
    <div data-testid="transfer-progress">
      {known ? (
        <progress max={expected} value={progress.items} aria-label="Transfer progress" />
      ) : (
        <progress aria-label="Transfer progress" />
      )}
      {progress !== null && (
        <p className="muted">
          {STAGE_LABEL[progress.stage]}: {formatCount(progress.items)}
          {known ? ` of ${formatCount(expected)}` : ""} items · {formatUnits(progress.capacityUnits)} capacity units
          {progress.retries > 0 && ` · ${progress.retries} batches sent again`}
        </p>
      )}
    </div>
  );
}
