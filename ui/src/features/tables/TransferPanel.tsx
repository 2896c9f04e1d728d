import { useState } from "react";
import { Channel } from "@tauri-apps/api/core";
import type {
  ChosenFile,
  commands,
  FileFormat,
  ImportEstimate,
  QueryInput,
  TransferProgress,
  TransferSummary,
} from "../../ipc/bindings.gen";
import { errorTitle, unwrap, type UiError } from "../../ipc/result";
import { formatCount, formatUnits } from "./format";

export type TransferSource = Pick<typeof commands, "exportItems" | "importItems" | "estimateImportFile" | "cancelOperation" | "chooseFile">;

export type ProgressChannelFactory = (onMessage: (progress: TransferProgress) => void) => Channel<TransferProgress>;

const tauriChannel: ProgressChannelFactory = (onMessage) => {
  const channel = new Channel<TransferProgress>();
  channel.onmessage = onMessage;
  return channel;
};

const FORMATS: { format: FileFormat; label: string; extension: string }[] = [
  { format: "dynamodbJson", label: "DynamoDB JSON (lossless)", extension: "ddb.jsonl" },
  { format: "jsonLines", label: "JSON lines", extension: "jsonl" },
  { format: "csv", label: "CSV (typed headers)", extension: "csv" },
];

let transferCounter = 0;

/**
 * Export the table or the current query to a file, and import a file into the table after seeing
 * what it will cost. Both show progress and can be cancelled.
 */
export function TransferPanel({
  profileId,
  table,
  query,
  readOnly,
  source,
  makeChannel = tauriChannel,
}: {
  profileId: string;
  table: string;
  query: QueryInput | null;
  readOnly: boolean;
  source: TransferSource;
  makeChannel?: ProgressChannelFactory | undefined;
}) {
  const [format, setFormat] = useState<FileFormat>("dynamodbJson");
  // Files the user chose in the system's dialog, as handles: the web view never holds a path.
  const [importFile, setImportFile] = useState<ChosenFile | null>(null);
  const [exportFile, setExportFile] = useState<ChosenFile | null>(null);
  // Saving over an existing file waits for the user to say so.
  const [replaceConfirmed, setReplaceConfirmed] = useState(false);
  const [what, setWhat] = useState<"table" | "query">("table");
  const [running, setRunning] = useState<string | null>(null);
  const [progress, setProgress] = useState<TransferProgress | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<UiError | null>(null);
  const [estimate, setEstimate] = useState<ImportEstimate | null>(null);

  const begin = () => {
    const id = `transfer-${Date.now()}-${++transferCounter}`;
    setRunning(id);
    setProgress(null);
    setDone(null);
    setError(null);
    return { id, channel: makeChannel(setProgress) };
  };
  const finish = (result: Awaited<ReturnType<typeof unwrap<TransferSummary>>>, verb: string) => {
    setRunning(null);
    if (result.status === "ok") {
      const { items, capacityUnits } = result.data.progress;
      setDone(
        result.data.cancelled
          ? `Cancelled after ${formatCount(items)} items.`
          : `${verb} ${formatCount(items)} items: ${formatUnits(capacityUnits)} capacity units consumed.`,
      );
    } else if (result.status === "error") setError(result.error);
  };

  const exportItems = async () => {
    const { id, channel } = begin();
    const exportSource = what === "query" && query !== null ? { kind: "query" as const, query } : { kind: "table" as const, table };
    if (exportFile === null) return;
    finish(await unwrap(source.exportItems(profileId, id, exportSource, format, exportFile.handle, channel)), "Exported");
  };

  const estimateTheImport = async () => {
    setEstimate(null);
    setError(null);
    if (importFile === null) return;
    const result = await unwrap(source.estimateImportFile(profileId, table, format, importFile.handle));
    if (result.status === "ok") setEstimate(result.data);
    else if (result.status === "error") setError(result.error);
  };

  const importItems = async () => {
    const { id, channel } = begin();
    if (importFile === null) return;
    finish(await unwrap(source.importItems(profileId, id, table, format, importFile.handle, channel)), "Imported");
    setEstimate(null);
  };

  const extension = FORMATS.find((f) => f.format === format)?.extension ?? "jsonl";

  /** The system's file dialog: Rust keeps the path and hands back a handle and the file's name. */
  const choose = async (purpose: "open" | "save") => {
    const result = await unwrap(source.chooseFile(purpose, `${table}.${extension}`, extension.split(".").at(-1) ?? extension));
    if (result.status === "error") setError(result.error);
    else if (result.status === "ok" && result.data !== null) {
      if (purpose === "open") {
        setImportFile(result.data);
        setEstimate(null);
      } else {
        setExportFile(result.data);
        setReplaceConfirmed(false);
      }
      setDone(null);
      setError(null);
    }
  };
  const mustConfirmReplace = exportFile !== null && exportFile.replaces && !replaceConfirmed;
  return (
    <section className="transfer-panel" aria-label="Import and export">
      <div className="scan-controls">
        <label>
          Format
          <select value={format} onChange={(e) => setFormat(e.target.value as FileFormat)} disabled={running !== null}>
            {FORMATS.map((f) => (
              <option key={f.format} value={f.format}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => void choose("open")} disabled={running !== null || readOnly}>
          Choose a file to import…
        </button>
        <button type="button" onClick={() => void choose("save")} disabled={running !== null}>
          Export to…
        </button>
      </div>
      <div className="scan-controls">
        <label>
          Export
          <select value={what} onChange={(e) => setWhat(e.target.value as "table" | "query")} disabled={running !== null}>
            <option value="table">the whole table (a scan)</option>
            <option value="query" disabled={query === null}>
              every page of the current query
            </option>
          </select>
        </label>
        <button type="button" onClick={() => void exportItems()} disabled={running !== null || exportFile === null || mustConfirmReplace}>
          {exportFile === null ? "Export" : `Export to ${exportFile.name}`}
        </button>
        <button type="button" onClick={() => void estimateTheImport()} disabled={running !== null || importFile === null || readOnly}>
          Estimate the import
        </button>
        <button type="button" onClick={() => void importItems()} disabled={running !== null || estimate === null || readOnly}>
          Import
        </button>
        {running !== null && (
          <button type="button" onClick={() => void source.cancelOperation(running)}>
            Cancel
          </button>
        )}
      </div>
      <p className="muted" data-testid="transfer-files">
        {importFile === null ? "No file chosen to import." : `Import from ${importFile.name}.`}{" "}
        {exportFile === null ? "No file chosen to export to." : `Export to ${exportFile.name}.`}
      </p>
      {mustConfirmReplace && exportFile !== null && (
        <div role="alertdialog" aria-label="Replace the file" className="confirm-inline">
          <p>{exportFile.name} already exists. Exporting replaces it when the export is complete.</p>
          <button type="button" className="danger" onClick={() => setReplaceConfirmed(true)}>
            Replace {exportFile.name}
          </button>
          <button type="button" onClick={() => void choose("save")}>
            Choose another file…
          </button>
        </div>
      )}
      {readOnly && <p className="muted">This connection is read-only: importing is off.</p>}
      {estimate !== null && (
        <p data-testid="import-estimate">
          Importing {formatCount(estimate.items)} items takes {formatCount(estimate.requests)} BatchWriteItem requests and{" "}
          <strong>{formatUnits(estimate.capacityUnits)} WCU</strong> ({formatUnits(estimate.tableUnits)} for the table
          {estimate.indexes.map((i) => `, ${formatUnits(i.units)} for ${i.name}`).join("")}).
        </p>
      )}
      {running !== null && progress !== null && (
        <p className="muted" data-testid="transfer-progress">
          {formatCount(progress.items)} items · {formatUnits(progress.capacityUnits)} capacity units
          {progress.retries > 0 && ` · ${progress.retries} batches sent again`}
        </p>
      )}
      {done !== null && (
        <p className="test-ok" data-testid="transfer-done">
          {done}
        </p>
      )}
      {error !== null && (
        <p className="status-error" role="alert">
          {errorTitle(error.code)}: {error.message}
        </p>
      )}
    </section>
  );
}
