/**
 * The one query model of a table's tab, and what it read. The life of a read:
 *
 * 1. The bar edits the form ([`QueryForm`]); every edit gives a new builder `ReadRequest`
 *    ([`requestOf`]), checked by the backend after a short pause (`buildReadRequest`: the
 *    generated expressions, names and values, the DynamoDB JSON body and DynamoDB's objections).
 * 2. Run (the button or Ctrl+Enter) sends exactly the checked request: a Query with
 *    `runReadRequest`, page by page on request (`loadMore` follows LastEvaluatedKey); a Scan with
 *    the streaming `scan` command, every page with running totals, until it ends, the user cancels
 *    it or the capacity budget is used up. Both go through `dynotable-builder` in the backend.
 * 3. What was read ([`QueryRun`]) is what the views draw: the Collections view highlights the box
 *    a Query read (its page cuts and filtered-out counts inside it) or the boxes a Scan has walked.
 *
 * Every capacity unit read goes to the capacity ledger (the status bar's "used since start").
 */
import { useCallback, useEffect, useMemo, useRef, useState, type SetStateAction } from "react";
import { Channel } from "@tauri-apps/api/core";
import type {
  BuiltRequest,
  QueryInput,
  QueryPage,
  ReadRequest,
  ScanSummary,
  ScanTotals,
  ScanUpdate,
  TableDescription,
} from "../../ipc/bindings.gen";
import { unwrap, type UiError } from "../../ipc/result";
import { useRecordCapacity } from "../../app/capacity";
import { formatPath, keySchemaOf } from "../builder/model";
import type { TextIssue } from "../builder/ExpressionTextMode";
import { useDebounced } from "../../shared/useDebounced";
import { countByCollection, type MetCollection } from "../../shared/collectionValue";
import { indexKeys } from "../../shared/keySchema";
import {
  budgetOf,
  EMPTY_FORM,
  filterPart,
  formOfQueryInput,
  formOfRequest,
  problemsOf,
  queryInputOf,
  requestOf,
  type QueryForm,
} from "./model";
import { useCommands } from "../../ipc/CommandsContext";

/** Makes the channel a scan streams its pages through; tests hand a fake one. */
export type ChannelFactory = (onMessage: (update: ScanUpdate) => void) => Channel<ScanUpdate>;

const tauriChannel: ChannelFactory = (onMessage) => {
  const channel = new Channel<ScanUpdate>();
  channel.onmessage = onMessage;
  return channel;
};

/** A Query's pages, in the order they were read. */
export type QueryRunState = {
  kind: "query";
  request: ReadRequest;
  /** The Query in the collection view's shape, as it ran (its filter as the builder wrote it). */
  input: QueryInput | null;
  pages: QueryPage[];
  loading: boolean;
  error: UiError | null;
};

/**
 * A Scan's pages as they streamed in, with the totals so far. Only the first `SCAN_ITEMS_KEPT`
 * items returned are kept in the pages (later pages keep their counts and capacity, not their
 * items): a Scan of a big table would otherwise hold the whole table in the window. What each
 * collection returned is counted as the pages arrive, from every item.
 */
export type ScanRunState = {
  kind: "scan";
  request: ReadRequest;
  id: string;
  running: boolean;
  pages: QueryPage[];
  /** The collections met, in scan order, with the items each returned (all of them, kept or not). */
  met: ReadonlyMap<string, MetCollection>;
  /** Whether every item returned named its collection (a projection can leave the key out). */
  attributed: boolean;
  /** How many items returned were not kept in `pages`. */
  notKept: number;
  totals: ScanTotals | null;
  summary: ScanSummary | null;
  error: UiError | null;
};

export type QueryRun = QueryRunState | ScanRunState;

/** Most items of a Scan kept for the Items view's grid (about 0.5 KB each in the window). */
export const SCAN_ITEMS_KEPT = 20_000;

/** The check of the request on screen: `key` is the request it describes. */
type Checked = { key: string; built: BuiltRequest | null; error: string | null };

/**
 * A run asked for before the request on screen was checked, made as soon as it is: `key`, of that
 * request; `typed`, asked while a filter or projection typed as text was still being read, of the
 * request the text makes once read. Every change to the bar drops it (the run was asked for what
 * was on screen then, never for a later edit), and so does a check that finds the text or the
 * request unusable (what is wrong is shown, as for any request).
 */
type Queued = { key: string } | { typed: true };

let scanCounter = 0;

export function useQueryModel({
  profileId,
  table,
  makeChannel = tauriChannel,
}: {
  profileId: string;
  table: TableDescription | null;
  makeChannel?: ChannelFactory | undefined;
}) {
  const source = useCommands();
  const [form, setFormState] = useState<QueryForm>(EMPTY_FORM);
  const [queued, setQueued] = useState<Queued | null>(null);
  /** A change to the bar, by the user or from outside: a run waiting for a check no longer stands. */
  const edited = useCallback(() => setQueued(null), []);
  // The form as last set, ahead of the render that shows it, so that an update computed here sees
  // the updates made before it in the same event.
  const formRef = useRef(form);
  formRef.current = form;
  const applyForm = useCallback((update: SetStateAction<QueryForm>): boolean => {
    const current = formRef.current;
    const next = typeof update === "function" ? update(current) : update;
    if (Object.is(next, current)) return false;
    formRef.current = next;
    setFormState(next);
    return true;
  }, []);
  // Only a change drops a waiting run: an update that leaves the form as it was (the Collections
  // view's grouping, already the bar's index) is no edit.
  const setForm = useCallback(
    (update: SetStateAction<QueryForm>) => {
      if (applyForm(update)) setQueued(null);
    },
    [applyForm],
  );
  /**
   * The filter or projection from its editor, a waiting run left as it is: the editor says the
   * user's edits apart (`edited`) from what its text mode read of the text typed, which is the
   * expression the waiting run is for.
   */
  const setExpression = useCallback(
    <K extends "filter" | "projection">(which: K, state: QueryForm[K]) => void applyForm((f) => ({ ...f, [which]: state })),
    [applyForm],
  );
  const [run, setRun] = useState<QueryRun | null>(null);
  const [checked, setChecked] = useState<Checked | null>(null);
  const [scanOptions, setScanOptionsState] = useState<{ segments: number; budget: string }>({ segments: 1, budget: "" });
  const setScanOptions = useCallback((update: SetStateAction<{ segments: number; budget: string }>) => {
    setQueued(null);
    setScanOptionsState(update);
  }, []);
  // Whether the bar is folded to its one line (the request in words, and Run): kept here, with
  // the tab's request, so each table's tab keeps its own choice. Unfolded at first.
  const [folded, setFolded] = useState(false);
  const recordCapacity = useRecordCapacity();
  const generation = useRef(0);

  // The filter and projection typed as text: while the text does not stand for the form's state,
  // the text decides (an empty box leaves the expression out; a text not usable as typed stops
  // the request), never the older state.
  const [textIssues, setTextIssues] = useState<Partial<Record<"filter" | "projection", TextIssue>>>({});
  const setTextIssue = useCallback((which: "filter" | "projection", issue: TextIssue | null) => {
    setTextIssues((t) => {
      if (JSON.stringify(t[which] ?? null) === JSON.stringify(issue)) return t;
      const next = { ...t };
      if (issue === null) delete next[which];
      else next[which] = issue;
      return next;
    });
  }, []);
  const sentForm = useMemo(
    () =>
      textIssues.filter?.kind === "empty" || textIssues.projection?.kind === "empty"
        ? {
            ...form,
            filter: textIssues.filter?.kind === "empty" ? null : form.filter,
            projection: textIssues.projection?.kind === "empty" ? null : form.projection,
          }
        : form,
    [form, textIssues],
  );
  const schema = useMemo(() => (table === null ? null : keySchemaOf(table, form.index)), [table, form.index]);
  const problems = useMemo(() => {
    const found = problemsOf(sentForm, schema);
    for (const which of ["filter", "projection"] as const) {
      const issue = textIssues[which];
      if (issue?.kind === "blocked") found[which] = issue.reason;
    }
    const budget = budgetOf(scanOptions.budget);
    if (form.operation === "Scan" && "problem" in budget) found.budget = budget.problem;
    return found;
  }, [sentForm, schema, textIssues, form.operation, scanOptions.budget]);
  const textBlocked = textIssues.filter?.kind === "blocked" || textIssues.projection?.kind === "blocked";
  // A text not read yet makes no request either: the form still holds the expression before it.
  const textChecking = textIssues.filter?.kind === "checking" || textIssues.projection?.kind === "checking";
  const request = useMemo(
    () => (table === null || textBlocked || textChecking ? null : requestOf(sentForm, table)),
    [sentForm, table, textBlocked, textChecking],
  );
  const requestKey = JSON.stringify(request);
  const settled = useDebounced(request, 150);
  const settledKey = JSON.stringify(settled);

  useEffect(() => {
    if (settled === null || table === null) return;
    let live = true;
    const keys = settled.operation === "Query" ? keySchemaOf(table, settled.indexName ?? null) : null;
    source.buildReadRequest(settled, keys).then(
      (result) =>
        live &&
        setChecked(
          result.status === "ok"
            ? { key: settledKey, built: result.data, error: null }
            : { key: settledKey, built: null, error: result.error.message },
        ),
      (err: unknown) => live && setChecked({ key: settledKey, built: null, error: String(err) }),
    );
    return () => {
      live = false;
    };
    // `settled` is compared by value.
  }, [settledKey, source, table]);

  // The check is shown only while it describes the request on screen.
  const current = checked !== null && checked.key === requestKey ? checked : null;
  const built = current?.built ?? null;
  const diagnostics = built?.diagnostics ?? [];
  // Every problem of the fields stops a run, those outside the request (the Scan's budget) too.
  const ready = request !== null && built !== null && diagnostics.length === 0 && Object.keys(problems).length === 0;
  const busy = run !== null && (run.kind === "query" ? run.loading : run.running);

  const readQueryPage = useCallback(
    async (sent: ReadRequest, input: QueryInput | null, previous: QueryPage[]) => {
      const mine = ++generation.current;
      setRun({ kind: "query", request: sent, input, pages: previous, loading: true, error: null });
      const start = previous.at(-1)?.lastEvaluatedKey ?? null;
      const result = await unwrap(source.runReadRequest(profileId, sent, start));
      if (mine !== generation.current) return;
      if (result.status === "ok") {
        recordCapacity("read", result.data.consumedCapacity?.total ?? 0);
        setRun({ kind: "query", request: sent, input, pages: [...previous, result.data], loading: false, error: null });
      } else if (result.status === "error") {
        setRun({ kind: "query", request: sent, input, pages: previous, loading: false, error: result.error });
      }
    },
    [profileId, source, recordCapacity],
  );

  const startScan = useCallback(
    async (sent: ReadRequest, checkedRequest: BuiltRequest) => {
      const budget = budgetOf(scanOptions.budget);
      // A budget that is not one never means "no budget" (Run is off while it is wrong).
      if ("problem" in budget) return;
      const mine = ++generation.current;
      const id = `scan-${Date.now()}-${++scanCounter}`;
      let recorded = 0;
      const pages: QueryPage[] = [];
      const keys = table === null ? null : indexKeys(table, sent.indexName ?? null);
      const met = new Map<string, MetCollection>();
      let attributed = true;
      let kept = 0;
      let notKept = 0;
      setRun({ kind: "scan", request: sent, id, running: true, pages: [], met: new Map(), attributed: true, notKept: 0, totals: null, summary: null, error: null });
      const channel = makeChannel((update) => {
        if (mine !== generation.current) return;
        const page = update.page;
        attributed = countByCollection(met, page.items, keys) && attributed;
        const room = Math.max(0, SCAN_ITEMS_KEPT - kept);
        const keptPage = page.items.length <= room ? page : { ...page, items: page.items.slice(0, room) };
        kept += keptPage.items.length;
        notKept += page.items.length - keptPage.items.length;
        pages.push(keptPage);
        recordCapacity("read", update.totals.capacityUnits - recorded);
        recorded = update.totals.capacityUnits;
        const seen = new Map(met);
        const runAttributed = attributed;
        const runNotKept = notKept;
        setRun((r) =>
          r?.kind === "scan" && r.id === id ? { ...r, pages: [...pages], met: seen, attributed: runAttributed, notKept: runNotKept, totals: update.totals } : r,
        );
      });
      const filter = filterPart(checkedRequest);
      const result = await unwrap(
        source.scan(
          profileId,
          {
            scanId: id,
            table: sent.tableName,
            index: sent.indexName ?? null,
            filter: filter?.text ?? null,
            filterNames: filter?.names ?? null,
            filterValues: filter?.values ?? null,
            projection: sent.projection ? sent.projection.paths.map(formatPath).join(", ") : null,
            consistentRead: sent.consistentRead ?? false,
            pageLimit: sent.limit ?? null,
            segments: scanOptions.segments,
            capacityBudget: budget.budget,
          },
          channel,
        ),
      );
      setRun((r) => {
        if (r?.kind !== "scan" || r.id !== id) return r;
        if (result.status === "ok") return { ...r, running: false, summary: result.data, totals: result.data.totals };
        if (result.status === "error") return { ...r, running: false, error: result.error };
        return { ...r, running: false };
      });
    },
    [profileId, source, recordCapacity, makeChannel, scanOptions, table],
  );

  const runNow = useCallback(() => {
    if (!ready || request === null || built === null || busy) return;
    if (request.operation === "Query") void readQueryPage(request, queryInputOf(request, built), []);
    else void startScan(request, built);
  }, [ready, request, built, busy, readQueryPage, startScan]);

  /**
   * Runs the request on screen as soon as it is checked (at once when it is): a filter or
   * projection typed a moment ago is read first, then the request it makes is checked by the
   * backend. False when the fields cannot make a request or DynamoDB would refuse it.
   */
  const execute = useCallback((): boolean => {
    if (busy || Object.keys(problems).length > 0) return false;
    if (textChecking) {
      setQueued({ typed: true });
      return true;
    }
    if (request === null || diagnostics.length > 0 || current?.error) return false;
    if (ready) runNow();
    else setQueued({ key: requestKey });
    return true;
  }, [request, busy, diagnostics.length, problems, current, ready, runNow, requestKey, textChecking]);

  const loadMore = useCallback(() => {
    if (run?.kind !== "query" || run.loading) return;
    const last = run.pages.at(-1);
    if (last === undefined || last.lastEvaluatedKey === null) return;
    void readQueryPage(run.request, run.input, run.pages);
  }, [run, readQueryPage]);

  const cancel = useCallback(() => {
    if (run?.kind === "scan" && run.running) void source.cancelOperation(run.id);
  }, [run, source]);

  /** A loaded request to run once checked (`andRun`); otherwise no run waits. */
  const queueLoaded = useCallback(
    (next: QueryForm, andRun: boolean) => {
      const loaded = andRun && table !== null ? requestOf(next, table) : null;
      if (loaded !== null) setQueued({ key: JSON.stringify(loaded) });
    },
    [table],
  );

  /**
   * Loads a builder request (a recent run, a saved one, a modeler pattern's) into the bar; with
   * `andRun`, runs it as soon as the backend has checked it.
   */
  const loadRequest = useCallback(
    (r: ReadRequest, andRun = false) => {
      const next = formOfRequest(r);
      setForm(next);
      queueLoaded(next, andRun);
    },
    [setForm, queueLoaded],
  );

  /**
   * Loads a collection-view query into the bar, its typed filter parsed back into builder state;
   * with `andRun`, runs it as soon as the backend has checked it.
   */
  const loadQueryInput = useCallback(
    async (input: QueryInput, andRun = false) => {
      let next = formOfQueryInput(input);
      if (input.filter !== null && input.filter.trim() !== "") {
        const parsed = await source.parseExpressions(
          {
            Expressions: [{ parameter: "FilterExpression", text: input.filter }],
            ExpressionAttributeNames: input.filterNames,
            ExpressionAttributeValues: input.filterValues,
          },
          null,
        );
        const state = parsed.status === "parsed" ? parsed.states[0] : undefined;
        if (state?.parameter === "FilterExpression") next = { ...next, filter: state.state };
      }
      setForm(next);
      queueLoaded(next, andRun);
    },
    [source, setForm, queueLoaded],
  );

  // The run waiting for a check, once the check is in: a text read (valid or empty) gives the
  // request the run is for, a text that cannot be used drops it; the backend's check of that
  // request runs it, or drops it when DynamoDB would refuse it.
  useEffect(() => {
    if (queued === null) return;
    if ("typed" in queued) {
      if (textChecking) return;
      setQueued(request !== null && Object.keys(problems).length === 0 ? { key: requestKey } : null);
      return;
    }
    if (queued.key !== requestKey || current === null) return;
    setQueued(null);
    if (ready) runNow();
  }, [queued, textChecking, request, problems, requestKey, current, ready, runNow]);

  /** Puts an edited item where it was in the pages read (null: it was deleted). */
  const replaceItem = useCallback((keyNames: string[], original: QueryPage["items"][number], item: QueryPage["items"][number] | null) => {
    const sameKey = (candidate: QueryPage["items"][number]) =>
      keyNames.every((name) => JSON.stringify(candidate[name]) === JSON.stringify(original[name]));
    setRun((r) => {
      if (r === null) return r;
      const pages = r.pages.map((page) => {
        if (!page.items.some(sameKey)) return page;
        const items = item === null ? page.items.filter((i) => !sameKey(i)) : page.items.map((i) => (sameKey(i) ? item : i));
        return { ...page, items, count: items.length };
      });
      return { ...r, pages };
    });
  }, []);

  /**
   * Whether what was read answers another request than the bar's: the summary, the highlight and
   * "next page" then say they belong to the previous request.
   */
  const stale = run !== null && JSON.stringify(run.request) !== requestKey;
  const queryInput = useMemo(() => queryInputOf(request, built), [request, built]);
  /** The Query that produced the pages on show, in the collection view's shape. */
  const ranInput = run?.kind === "query" ? run.input : null;

  return {
    form,
    setForm,
    setExpression,
    edited,
    setTextIssue,
    schema,
    problems,
    request,
    built,
    checkError: current?.error ?? null,
    checking: request !== null && current === null,
    /** A filter or projection typed as text is still being read. */
    textChecking,
    /** A run asked for waits for the check of the request (Run says "Checking…"). */
    queued: queued !== null,
    diagnostics,
    ready,
    busy,
    run,
    stale,
    execute,
    loadMore,
    cancel,
    loadRequest,
    loadQueryInput,
    replaceItem,
    queryInput,
    ranInput,
    scanOptions,
    setScanOptions,
    folded,
    setFolded,
  };
}

export type QueryModel = ReturnType<typeof useQueryModel>;
