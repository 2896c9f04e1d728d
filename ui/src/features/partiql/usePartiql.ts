/**
 * The PartiQL editor's state and its calls: the text, one typed value per `?`, the run mode
 * (one statement, a batch, a transaction), the result pages and the errors marked in the text.
 *
 * A run goes: split the text into statements, hand each its share of the parameters, send
 * (ExecuteStatement, BatchExecuteStatement or ExecuteTransaction), then show the items with what
 * they cost, or the error at the place it names. "Next page" sends the same statement with the
 * NextToken of the last page and adds its items.
 */
import type { Item } from "../../shared/attributeValue";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { AttributeValue, CommandError, ConsumedCapacity, TableCapacity } from "../../ipc/bindings.gen";
import { unwrap, type UiError } from "../../ipc/result";
import { useRecordCapacity } from "../../app/capacity";
import { addToHistory, loadHistory, type HistoryEntry, type RunMode } from "./history";
import { countParameters, errorRange, isWrite, lineAndColumn, splitStatements } from "./statements";
import type { Mark } from "./PartiqlEditor";
import { useCommands } from "../../ipc/CommandsContext";

/** One item as the backend sends it. */

/** One statement's own failure in a batch. */
export type StatementFailure = { index: number; statement: string; code: string; message: string };

export type Outcome =
  | { status: "idle" }
  | { status: "running" }
  | {
      status: "ok";
      mode: RunMode;
      items: Item[];
      pages: number;
      nextToken: string | null;
      capacity: TableCapacity[];
      failures: StatementFailure[];
      statements: number;
    }
  | { status: "error"; error: UiError };

const EMPTY: AttributeValue = { S: "" };

/** The total of the capacities, for the ledger and the summary. */
export function totalUnits(capacity: readonly TableCapacity[]): number {
  return capacity.reduce((n, c) => n + c.capacity.total, 0);
}

export function usePartiql(profileId: string) {
  const source = useCommands();
  const recordCapacity = useRecordCapacity();
  const [text, setText] = useState("");
  const [parameters, setParameters] = useState<AttributeValue[]>([]);
  const [mode, setMode] = useState<RunMode>("statement");
  const [consistentRead, setConsistentRead] = useState(false);
  const [limit, setLimit] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<Outcome>({ status: "idle" });
  const [marks, setMarks] = useState<Mark[]>([]);
  const [history, setHistory] = useState<HistoryEntry[]>(() => loadHistory(profileId));
  /** The statement the pages shown belong to (Next page repeats it). */
  const last = useRef<{ statement: string; parameters: AttributeValue[] } | null>(null);

  // Per `?`: whether a value was given (typed, or put back from the history), and why the text
  // typed in its box is not a value. A parameter never given a value is not sent as "".
  const [filled, setFilled] = useState<boolean[]>([]);
  const [problems, setProblems] = useState<(string | null)[]>([]);
  // A run was asked for while Run is off: the reason is then said out loud.
  const [refused, setRefused] = useState(false);
  // What the result on screen was run with, to say when the editor no longer holds it.
  const [ran, setRan] = useState<{ text: string; parameters: string; mode: RunMode } | null>(null);
  // Where the error on show is, when its message names a place.
  const [errorAt, setErrorAt] = useState<{ line: number; column: number } | null>(null);

  const parameterCount = useMemo(() => countParameters(text), [text]);
  // One value input per `?`: keep the values typed, add empty ones, drop the extra.
  useEffect(() => {
    const resize = <T,>(current: T[], empty: T) =>
      current.length === parameterCount ? current : Array.from({ length: parameterCount }, (_, i) => current[i] ?? empty);
    setParameters((current) => resize(current, EMPTY));
    setFilled((current) => resize(current, false));
    setProblems((current) => resize(current, null));
  }, [parameterCount]);

  const edit = useCallback((next: string) => {
    setText(next);
    setMarks([]);
    setRefused(false);
  }, []);

  const blocker = runBlocker(parameterCount, filled, problems);

  const record = useCallback(
    (capacity: readonly TableCapacity[], writes: boolean) => recordCapacity(writes ? "write" : "read", totalUnits(capacity)),
    [recordCapacity],
  );

  const fail = (error: UiError, at: { text: string; from: number }[]) => {
    setOutcome({ status: "error", error });
    const marked: Mark[] = [];
    for (const statement of at) {
      const range = errorRange(statement.text, error.message);
      if (range !== null) marked.push({ from: statement.from + range.from, to: statement.from + range.to, message: error.message });
    }
    const precise = marked.length > 0;
    const only = at.length === 1 ? at[0] : undefined;
    if (marked.length === 0 && only !== undefined) {
      marked.push({ from: only.from, to: only.from + only.text.length, message: error.message });
    }
    setMarks(marked);
    // The place the message names, in the editor's lines and columns (not the whole statement).
    const first = marked[0];
    setErrorAt(precise && first !== undefined ? lineAndColumn(text, first.from) : null);
  };

  const run = useCallback(async () => {
    const spans = splitStatements(text);
    if (spans.length === 0) return;
    if (blocker !== null) {
      setRefused(true);
      return;
    }
    setRefused(false);
    setErrorAt(null);
    setRan({ text, parameters: JSON.stringify(parameters), mode });
    if (mode === "statement" && spans.length > 1) {
      setOutcome({
        status: "error",
        error: {
          code: "VALIDATION",
          message: `The text has ${spans.length} statements: choose Batch or Transaction to run them together, or run one at a time.`,
        },
      });
      return;
    }
    setOutcome({ status: "running" });
    setMarks([]);
    setHistory(addToHistory(profileId, { statement: text, parameters, mode, ranAt: Date.now() }));
    const writes = spans.some((s) => isWrite(s.text));
    const first = spans[0];
    if (mode === "statement" && first !== undefined) {
      const statement = first.text;
      const result = await unwrap(
        source.executeStatement(profileId, { statement, parameters, nextToken: null, consistentRead, limit }),
      );
      if (result.status === "error") return fail(result.error, [first]);
      if (result.status !== "ok") return;
      const capacity = asTable(result.data.consumedCapacity);
      record(capacity, writes);
      last.current = { statement, parameters };
      setOutcome({
        status: "ok",
        mode,
        items: result.data.items,
        pages: 1,
        nextToken: result.data.nextToken,
        capacity,
        failures: [],
        statements: 1,
      });
      return;
    }
    // Each statement takes the values of its own `?`, in order.
    let at = 0;
    const statements = spans.map((s) => {
      const own = parameters.slice(at, at + s.parameters);
      at += s.parameters;
      return { statement: s.text, parameters: own };
    });
    if (mode === "batch") {
      const result = await unwrap(source.executeBatch(profileId, statements, consistentRead));
      if (result.status === "error") return fail(result.error, spans);
      if (result.status !== "ok") return;
      record(result.data.consumedCapacity, writes);
      const failures: StatementFailure[] = [];
      const items: Item[] = [];
      result.data.results.forEach((r, index) => {
        if (r.item !== null) items.push(r.item);
        if (r.error !== null) failures.push({ index, statement: spans[index]?.text ?? "", code: r.error.code, message: r.error.message });
      });
      setMarks(
        failures.flatMap((f) => {
          const span = spans[f.index];
          return span === undefined ? [] : [{ from: span.from, to: span.to, message: `${f.code}: ${f.message}` }];
        }),
      );
      last.current = null;
      setOutcome({ status: "ok", mode, items, pages: 1, nextToken: null, capacity: result.data.consumedCapacity, failures, statements: spans.length });
      return;
    }
    const result = await unwrap(source.executeTransaction(profileId, statements));
    if (result.status === "error") {
      setOutcome({ status: "error", error: result.error });
      setMarks(cancellationMarks(result.error, spans));
      return;
    }
    if (result.status !== "ok") return;
    record(result.data.consumedCapacity, writes);
    last.current = null;
    setOutcome({
      status: "ok",
      mode,
      items: result.data.items.filter((i): i is Item => i !== null),
      pages: 1,
      nextToken: null,
      capacity: result.data.consumedCapacity,
      failures: [],
      statements: spans.length,
    });
  }, [text, parameters, mode, consistentRead, limit, profileId, source, record, blocker]);

  const nextPage = useCallback(async () => {
    if (outcome.status !== "ok" || outcome.nextToken === null || last.current === null) return;
    const shown = outcome;
    const result = await unwrap(
      source.executeStatement(profileId, {
        statement: last.current.statement,
        parameters: last.current.parameters,
        nextToken: shown.nextToken,
        consistentRead,
        limit,
      }),
    );
    if (result.status === "error") {
      setOutcome({ status: "error", error: result.error });
      return;
    }
    if (result.status !== "ok") return;
    const capacity = asTable(result.data.consumedCapacity);
    record(capacity, false);
    setOutcome({
      ...shown,
      items: [...shown.items, ...result.data.items],
      pages: shown.pages + 1,
      nextToken: result.data.nextToken,
      capacity: addCapacity(shown.capacity, capacity),
    });
  }, [outcome, profileId, source, consistentRead, limit, record]);

  const restore = useCallback((entry: HistoryEntry) => {
    setText(entry.statement);
    setMode(entry.mode);
    setParameters(entry.parameters);
    setFilled(entry.parameters.map(() => true));
    setProblems(entry.parameters.map(() => null));
    setMarks([]);
    setRefused(false);
  }, []);

  // The result on screen answers another statement, other parameters or another mode than the
  // ones in the editor (a parameter whose text is not a value counts as changed).
  const shown = outcome.status === "ok" || outcome.status === "error";
  const stale =
    shown &&
    ran !== null &&
    (ran.text !== text || ran.parameters !== JSON.stringify(parameters) || ran.mode !== mode || problems.some((p) => p !== null));

  return {
    text,
    edit,
    parameters,
    setParameter: (index: number, value: AttributeValue) => {
      setParameters((current) => current.map((v, i) => (i === index ? value : v)));
      setFilled((current) => current.map((f, i) => f || i === index));
      setRefused(false);
    },
    /** Why the text typed for parameter `index` is not a value, or null. */
    setParameterProblem: (index: number, problem: string | null) => {
      setProblems((current) => current.map((p, i) => (i === index ? problem : p)));
      setFilled((current) => current.map((f, i) => f || i === index));
      setRefused(false);
    },
    parameterCount,
    blocker,
    refused,
    stale,
    ranText: ran?.text ?? null,
    errorAt,
    mode,
    setMode,
    consistentRead,
    setConsistentRead,
    limit,
    setLimit,
    outcome,
    marks,
    run,
    nextPage,
    history,
    restore,
  };
}

/** "?1", "?1 and ?2", "?1, ?2 and ?3". */
function parameterList(indexes: number[]): string {
  const names = indexes.map((i) => `?${i + 1}`);
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * What keeps Run off, in words, or null: a parameter whose text is not a value, then parameters
 * never given one (they would go as empty strings and match nothing, without a word).
 */
export function runBlocker(count: number, filled: readonly boolean[], problems: readonly (string | null)[]): string | null {
  const invalid = problems.flatMap((p, i) => (p !== null && i < count ? [`?${i + 1} is not valid: ${p}`] : []));
  if (invalid.length > 0) return invalid.join(" ");
  const empty = Array.from({ length: count }, (_, i) => i).filter((i) => filled[i] !== true);
  if (empty.length > 0) return `Fill in ${empty.length === 1 ? "parameter" : "parameters"} ${parameterList(empty)}: each ? takes the value typed for it.`;
  return null;
}

function asTable(capacity: ConsumedCapacity | null): TableCapacity[] {
  return capacity === null ? [] : [{ table: "", capacity }];
}

function addCapacity(a: readonly TableCapacity[], b: readonly TableCapacity[]): TableCapacity[] {
  const [p, q] = [a[0], b[0]];
  if (p === undefined) return [...b];
  if (q === undefined) return [...a];
  const [x, y] = [p.capacity, q.capacity];
  return [
    {
      table: p.table,
      capacity: {
        total: x.total + y.total,
        table: x.table === null && y.table === null ? null : (x.table ?? 0) + (y.table ?? 0),
        indexes: [...x.indexes, ...y.indexes].reduce<{ name: string; units: number }[]>((all, i) => {
          const found = all.find((f) => f.name === i.name);
          if (found) found.units += i.units;
          else all.push({ ...i });
          return all;
        }, []),
      },
    },
  ];
}

/**
 * A cancelled transaction names a reason per statement (`[None, ConditionalCheckFailed]`):
 * each statement with a reason other than None is marked.
 */
export function cancellationMarks(error: UiError | CommandError, spans: { from: number; to: number }[]): Mark[] {
  const reasons = /\[([^\]]*)\]/.exec(error.message)?.[1];
  if (error.exception !== "TransactionCanceledException" || reasons === undefined) return [];
  return reasons
    .split(",")
    .map((r) => r.trim())
    .flatMap((reason, i) =>
      {
        const span = spans[i];
        return reason !== "None" && reason !== "" && span !== undefined
          ? [{ from: span.from, to: span.to, message: `${reason} (statement ${i + 1})` }]
          : [];
      },
    );
}
