import { useEffect, useMemo, useState } from "react";
import type { AppliedModel, Model, ModelAnalysis, ModelExportFormat, Suggestion, TrafficModel } from "../../ipc/bindings.gen";
import { unwrap, type Loadable, type UiError } from "../../ipc/result";
import { useDebounced } from "../../shared/useDebounced";
import { EMPTY_MODEL } from "./form/modelEdits";
import { TELEMETRY_STARTER } from "./starter";
import { useCommands } from "../../ipc/CommandsContext";
import { plainAnalysis } from "./ruleCitations";

/** The model text parsed: the model, or why it is not JSON. */
export type Parsed = { ok: true; model: Model } | { ok: false; message: string };

export function parseModel(text: string): Parsed {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null || !Array.isArray((value as { tables?: unknown }).tables)) {
      return { ok: false, message: "A model is a JSON object with a name and a list of tables." };
    }
    const shape = shapeProblem(value as Model);
    if (shape !== null) return { ok: false, message: shape };
    return { ok: true, model: value as Model };
  } catch (err) {
    return { ok: false, message: `The model is not valid JSON: ${String(err)}` };
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * What the form needs of a model's shape beyond being JSON (the backend checks the rest): named
 * tables with a partition key, entities with a list of keys, patterns with a name.
 */
function shapeProblem(model: Model): string | null {
  if (typeof model.name !== "string") return "A model has a name (text).";
  for (const [n, t] of model.tables.entries()) {
    if (!isObject(t) || typeof t.name !== "string") return `Table ${n + 1} needs a name.`;
    if (!isObject(t.partitionKey) || typeof t.partitionKey.name !== "string") return `Table ${t.name} needs a partitionKey with a name and a type.`;
    for (const i of [...(t.globalIndexes ?? []), ...(t.localIndexes ?? [])])
      if (!isObject(i) || typeof i.name !== "string" || !isObject(i.partitionKey)) return `An index of ${t.name} needs a name and a partitionKey.`;
  }
  if (model.entities !== undefined && !Array.isArray(model.entities)) return "entities is a list.";
  for (const e of model.entities ?? [])
    if (!isObject(e) || typeof e.name !== "string" || !Array.isArray(e.keys) || (e.fields !== undefined && !Array.isArray(e.fields)))
      return "Each entity has a name, a list of keys and a list of fields.";
  for (const e of model.entities ?? [])
    for (const f of e.fields ?? [])
      if (!isObject(f) || typeof f.name !== "string" || !isObject(f.generator) || typeof f.generator.kind !== "string")
        return `Each field of ${e.name} has a name, a type and a generator with a kind.`;
  if (model.patterns !== undefined && !Array.isArray(model.patterns)) return "patterns is a list.";
  for (const p of model.patterns ?? []) if (!isObject(p) || typeof p.name !== "string") return "Each access pattern has a name.";
  return null;
}

export const pretty = (model: Model) => JSON.stringify(model, null, 2);

/** A date as NoSQL Workbench writes it (`Dec 4, 2026, 08:00 PM`), for a model it did not write. */
export function workbenchDate(at: Date): string {
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const hours = at.getHours() % 12 === 0 ? 12 : at.getHours() % 12;
  const two = (n: number) => String(n).padStart(2, "0");
  return `${months[at.getMonth()]} ${at.getDate()}, ${at.getFullYear()}, ${two(hours)}:${two(at.getMinutes())} ${at.getHours() < 12 ? "AM" : "PM"}`;
}

/**
 * The modeler's state: the model as editable JSON, the sample's seed, the what-if traffic, and
 * the analysis the backend answers for them once the typing settles — live while editing.
 */
export function useModeler(onApplied?: () => void) {
  const source = useCommands();
  // One model, two views: the JSON text as typed, and the last model it parsed to (what the form
  // shows while the text is not valid JSON). A form edit writes both.
  const [text, setTextOnly] = useState(() => pretty(TELEMETRY_STARTER));
  const [model, setModelOnly] = useState<Model>(TELEMETRY_STARTER);
  // Whether the model was changed since it was loaded (new, starter, imported or inferred): a
  // model inferred from a table replaces it only once the user agrees.
  const [edited, setEdited] = useState(false);
  const setText = (next: string) => {
    setTextOnly(next);
    setEdited(true);
    const p = parseModel(next);
    if (p.ok) setModelOnly(p.model);
  };
  const setModel = (next: Model) => {
    setModelOnly(next);
    setTextOnly(pretty(next));
    setEdited(true);
  };
  /** Replaces the model with one loaded whole: no edits yet. */
  const loadModel = (next: Model) => {
    setModelOnly(next);
    setTextOnly(pretty(next));
    setEdited(false);
    setApplied(null);
    setExported(null);
  };
  const [seed, setSeed] = useState(7);
  const [traffic, setTraffic] = useState<TrafficModel>({
    readUnitsPerSecond: 100,
    writeUnitsPerSecond: 40,
    spread: "byItems",
    scale: 1,
  });
  const [analysis, setAnalysis] = useState<Loadable<ModelAnalysis, UiError>>({ status: "loading" });
  // The last analysis of a model without a problem: drawn (dimmed) while the model has one, so one
  // slip in a template does not take the whole picture away.
  const [picture, setPicture] = useState<ModelAnalysis | null>(null);
  const [exported, setExported] = useState<{ format: ModelExportFormat; result: Loadable<string, UiError> } | null>(null);
  const [applied, setApplied] = useState<Loadable<AppliedModel, UiError> | null>(null);
  const [actionError, setActionError] = useState<UiError | null>(null);

  const parsed = useMemo(() => parseModel(text), [text]);
  const settled = useDebounced({ parsed, seed, traffic }, 250);

  // Asked again only when the settled content changes; the last answer stays on screen until
  // the next one arrives, so the boxes do not blink (or lose focus) while the user types.
  const settledKey = JSON.stringify(settled);
  useEffect(() => {
    if (!settled.parsed.ok) return;
    let live = true;
    void unwrap<ModelAnalysis>(source.analyzeModel(settled.parsed.model, settled.seed, settled.traffic).then((data) => ({ status: "ok" as const, data }))).then(
      (answer) => {
        if (!live) return;
        if (answer.status !== "ok") return setAnalysis(answer);
        const plain = plainAnalysis(answer.data);
        setAnalysis({ status: "ok", data: plain });
        if (plain.problem === null) setPicture(plain);
      },
    );
    return () => {
      live = false;
    };
  }, [settledKey, source]);

  const takeSuggestion = async (suggestion: Suggestion) => {
    if (!parsed.ok) return;
    const answer = await unwrap(source.takeModelSuggestion(parsed.model, suggestion));
    if (answer.status === "ok") {
      setActionError(null);
      setModel(answer.data);
    } else if (answer.status === "error") {
      setActionError(answer.error);
    }
  };

  const exportAs = async (format: ModelExportFormat) => {
    if (!parsed.ok) return;
    setExported({ format, result: { status: "loading" } });
    setExported({ format, result: await unwrap(source.exportModel(parsed.model, format, seed, workbenchDate(new Date()))) });
  };

  const importWorkbench = async (file: string) => {
    const answer = await unwrap(source.importWorkbenchModel(file));
    if (answer.status === "ok") {
      setActionError(null);
      loadModel(answer.data);
    } else if (answer.status === "error") {
      setActionError(answer.error);
    }
  };

  const apply = async () => {
    if (!parsed.ok) return;
    setApplied({ status: "loading" });
    const answer = await unwrap(source.applyModelToEmbedded(parsed.model, seed));
    setApplied(answer);
    if (answer.status === "ok") onApplied?.();
  };

  return {
    text,
    setText,
    /** The model the form shows: the text's, or the last valid one while the text is not. */
    model,
    setModel,
    /** Starts again from an empty model ("New model") or from the Telemetry starter. */
    newModel: () => loadModel(EMPTY_MODEL),
    starterModel: () => loadModel(TELEMETRY_STARTER),
    /** Replaces the model with one inferred from a table (or any model loaded whole). */
    loadModel,
    /** Whether the model has changed since it was loaded. */
    edited,
    parsed,
    seed,
    setSeed,
    traffic,
    setTraffic,
    /** The backend's answer for the model as it is (its problem and notes in plain words). */
    analysis,
    /** The last answer without a problem (the current one when it has none); null before any. */
    picture,
    takeSuggestion,
    exported,
    exportAs,
    importWorkbench,
    applied,
    apply,
    actionError,
  };
}
