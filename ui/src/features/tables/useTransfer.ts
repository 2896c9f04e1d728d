import { useEffect, useRef, useState } from "react";
import { Channel } from "@tauri-apps/api/core";
import type {
  ChosenFile,
  CsvColumnChoice,
  CsvColumnType,
  ExportEstimate,
  ExportSource,
  FileFormat,
  ImportEstimate,
  ImportPreview,
  QueryInput,
  TransferProgress,
  TransferSummary,
} from "../../ipc/bindings.gen";
import { unwrap, type UiError } from "../../ipc/result";
import { formatCount, formatUnits } from "../../shared/format";
import { useCommands } from "../../ipc/CommandsContext";
import { useTableWritten } from "../../shared/useTableWritten";

export type ProgressChannelFactory = (onMessage: (progress: TransferProgress) => void) => Channel<TransferProgress>;

export const tauriChannel: ProgressChannelFactory = (onMessage) => {
  const channel = new Channel<TransferProgress>();
  channel.onmessage = onMessage;
  return channel;
};

export const FORMATS: { format: FileFormat; label: string; extension: string }[] = [
  { format: "dynamodbJson", label: "DynamoDB JSON (lossless)", extension: "ddb.jsonl" },
  { format: "jsonLines", label: "JSON lines", extension: "jsonl" },
  { format: "csv", label: "CSV", extension: "csv" },
];

/** A read budget as typed: empty is no budget; anything else must be a number of units above 0. */
export type Budget = { units: number | null; problem: string | null };

export function parseBudget(text: string): Budget {
  const trimmed = text.trim();
  if (trimmed === "") return { units: null, problem: null };
  const units = Number(trimmed);
  if (!Number.isFinite(units) || units <= 0) {
    return { units: null, problem: "A read budget is a number of capacity units above 0, or empty for none." };
  }
  return { units, problem: null };
}

/** What a finished transfer says. */
export function summaryText(summary: TransferSummary, verb: string, budget: number | null, fileName: string | null): string {
  const { items, capacityUnits } = summary.progress;
  if (summary.cancelled) return `Cancelled after ${formatCount(items)} items: nothing was written to the file.`;
  if (summary.budgetReached) {
    return `Stopped at the read budget of ${formatUnits(budget ?? capacityUnits)} capacity units, after ${formatCount(items)} items (${formatUnits(capacityUnits)} consumed): ${fileName ?? "the file"} holds those ${formatCount(items)} items, not the whole table.`;
  }
  return `${verb} ${formatCount(items)} items: ${formatUnits(capacityUnits)} capacity units consumed.`;
}

let transferCounter = 0;

/**
 * The Transfer panel's state and calls: the files chosen in the system's dialog (handles, never
 * paths), a CSV file's preview and the type chosen for each of its columns, the estimates shown
 * before an import or an export starts, the read budget, and the running transfer's progress,
 * cancel and outcome. The columns' types are inferred in the backend (preview_import_file); this
 * hook only keeps what the user changed them to and sends them with the estimate and the import.
 */
export function useTransfer({
  profileId,
  table,
  query,
  makeChannel,
}: {
  profileId: string;
  table: string;
  query: QueryInput | null;
  makeChannel: ProgressChannelFactory;
}) {
  const source = useCommands();
  const [format, setFormat] = useState<FileFormat>("dynamodbJson");
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
  // A CSV file's preview, and the type chosen for each column (the preview's until changed).
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [columnTypes, setColumnTypes] = useState<CsvColumnType[]>([]);
  // The file whose preview is awaited: an answer for a file chosen before it is dropped.
  const previewing = useRef<string | null>(null);
  const [exportEstimate, setExportEstimate] = useState<ExportEstimate | null>(null);
  const [budgetText, setBudgetText] = useState("");
  const budget = parseBudget(budgetText);
  // Files chosen for another format and let go when the format changed, to say so.
  const [dropped, setDropped] = useState<string | null>(null);

  const exportSource: ExportSource = what === "query" && query !== null ? { kind: "query", query } : { kind: "table", table };
  const sourceKey = JSON.stringify(exportSource);

  // What the export will read and cost, fetched again when what is exported changes, and once items
  // of the table are written (an import here, an edit elsewhere): the count it quotes follows.
  const written = useTableWritten(profileId, table);
  useEffect(() => {
    let live = true;
    setExportEstimate(null);
    void unwrap(source.estimateExport(profileId, JSON.parse(sourceKey) as ExportSource)).then((result) => {
      if (!live) return;
      if (result.status === "ok") setExportEstimate(result.data);
      else if (result.status === "error") setError(result.error);
    });
    return () => {
      live = false;
    };
  }, [profileId, sourceKey, source, written]);

  const begin = () => {
    const id = `transfer-${Date.now()}-${++transferCounter}`;
    setRunning(id);
    setProgress(null);
    setDone(null);
    setError(null);
    return { id, channel: makeChannel(setProgress) };
  };
  const finish = (result: Awaited<ReturnType<typeof unwrap<TransferSummary>>>, text: (summary: TransferSummary) => string) => {
    setRunning(null);
    if (result.status === "ok") setDone(text(result.data));
    else if (result.status === "error") setError(result.error);
  };

  const exportItems = async () => {
    if (exportFile === null || budget.problem !== null) return;
    const { id, channel } = begin();
    const result = await unwrap(source.exportItems(profileId, id, exportSource, format, exportFile.handle, budget.units, channel));
    finish(result, (summary) => summaryText(summary, "Exported", budget.units, exportFile.name));
  };

  // The types a CSV import reads its columns with: the preview's header cells, each with its type.
  const columns: CsvColumnChoice[] | null =
    format === "csv" && preview !== null ? preview.columns.map((c, i) => ({ header: c.header, type: columnTypes[i] ?? c.type })) : null;
  // A CSV file is estimated and imported only once its preview has said how its columns are read.
  const importReady = importFile !== null && (format !== "csv" || preview !== null);

  const previewTheFile = async (file: ChosenFile) => {
    previewing.current = file.handle;
    const result = await unwrap(source.previewImportFile(profileId, table, file.handle));
    if (previewing.current !== file.handle) return;
    if (result.status === "ok") {
      setPreview(result.data);
      setColumnTypes(result.data.columns.map((c) => c.type));
    } else if (result.status === "error") setError(result.error);
  };

  /** A column's type, changed: what the estimate said no longer holds. */
  const setColumnType = (index: number, type: CsvColumnType) => {
    setColumnTypes((types) => types.map((t, i) => (i === index ? type : t)));
    setEstimate(null);
    setDone(null);
  };

  const estimateTheImport = async () => {
    setEstimate(null);
    setError(null);
    if (importFile === null || !importReady) return;
    const result = await unwrap(source.estimateImportFile(profileId, table, format, importFile.handle, columns));
    if (result.status === "ok") setEstimate(result.data);
    else if (result.status === "error") setError(result.error);
  };

  const importItems = async () => {
    if (importFile === null || !importReady) return;
    const { id, channel } = begin();
    const result = await unwrap(source.importItems(profileId, id, table, format, importFile.handle, columns, channel));
    finish(result, (summary) => summaryText(summary, "Imported", null, null));
    setEstimate(null);
  };

  const extension = FORMATS.find((f) => f.format === format)?.extension ?? "jsonl";

  /**
   * A new format lets go of the files chosen for the old one: a file chosen as CSV is not read as
   * JSON lines, nor is an export in the new format written into a file named for the old one.
   */
  const changeFormat = (next: FileFormat) => {
    if (next === format) return;
    setFormat(next);
    const names = [importFile, exportFile].flatMap((f) => (f === null ? [] : [f.name]));
    setImportFile(null);
    setExportFile(null);
    setReplaceConfirmed(false);
    setEstimate(null);
    setPreview(null);
    setColumnTypes([]);
    previewing.current = null;
    setDone(null);
    setError(null);
    const label = FORMATS.find((f) => f.format === next)?.label ?? next;
    setDropped(names.length === 0 ? null : `The format is now ${label}: ${names.join(" and ")} ${names.length === 1 ? "was" : "were"} chosen for the other format, so choose the file again.`);
  };

  /** The system's file dialog: Rust keeps the path and hands back a handle and the file's name. */
  const choose = async (purpose: "open" | "save") => {
    const result = await unwrap(source.chooseFile(purpose, `${table}.${extension}`, extension.split(".").at(-1) ?? extension));
    if (result.status === "error") setError(result.error);
    else if (result.status === "ok" && result.data !== null) {
      setDropped(null);
      if (purpose === "open") {
        setImportFile(result.data);
        setEstimate(null);
        setPreview(null);
        setColumnTypes([]);
      } else {
        setExportFile(result.data);
        setReplaceConfirmed(false);
      }
      setDone(null);
      setError(null);
      if (purpose === "open" && format === "csv") await previewTheFile(result.data);
    }
  };

  const cancel = () => {
    if (running !== null) void source.cancelOperation(running);
  };

  return {
    format,
    setFormat: changeFormat,
    dropped,
    what,
    setWhat,
    importFile,
    exportFile,
    mustConfirmReplace: exportFile !== null && exportFile.replaces && !replaceConfirmed,
    confirmReplace: () => setReplaceConfirmed(true),
    running,
    progress,
    done,
    error,
    estimate,
    preview,
    columnTypes,
    setColumnType,
    importReady,
    exportEstimate,
    budgetText,
    setBudgetText,
    budget,
    exportItems,
    estimateTheImport,
    importItems,
    choose,
    cancel,
  };
}
