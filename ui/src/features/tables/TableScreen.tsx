import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { AttributeValue, Profile, QueryInput } from "../../ipc/bindings.gen";
import { errorTitle, unwrap, type UiError } from "../../ipc/result";
import { useRecordCapacity } from "../../app/capacity";
import { CollectionBox } from "../explorer/CollectionBox";
import { CollectionMap } from "../explorer/CollectionMap";
import type { KeySchema } from "../../ipc/bindings.gen";
import type { Item } from "../../shared/attributeValue";
import { collectionPartition } from "../../shared/collectionValue";
import { attributeText } from "../../shared/attributeValue";
import type { ItemValidation } from "../items/ItemEditor";
import { ItemCopy, copyText, defaultClipboard, type TextClipboard } from "../items/ItemCopy";
import { itemAsText } from "../items/itemCopy";
import { PasteItems } from "../items/PasteItems";
import { BulkPanel, type BulkChannelFactory } from "../bulk/BulkPanel";
import { TableOverview } from "./TableOverview";
import { ItemDialog, type Editing } from "./ItemDialog";
import { StatisticsGate } from "../collections/StatisticsGate";
import { useKeySuggestions } from "../query/useKeySuggestions";
import { TableHeader } from "./TableHeader";
import { CollectionsPane } from "../collections/CollectionsPane";
import { collectionKey } from "../collections/useCollections";
import type { TableIntent } from "../../shared/tableIntent";
import { useTable } from "./useTable";
import { VIEW_ORDER, ViewTabs, type ViewId, type ViewInfo } from "./ViewTabs";
import { shortcutOf } from "../../app/shortcuts";
import { TransferPanel } from "./TransferPanel";
import { DeleteTable } from "./DeleteTable";
import { TableSettings } from "./TableSettings";
import { QueryHistory } from "./QueryHistory";
import { CodePanel } from "../builder/CodePanel";
import { CostPanel } from "../costs/CostPanel";
import type { HotLoad } from "../costs/HotPartitions";
import { IndexesView } from "../indexes/IndexesView";
import { WriteEstimate } from "../costs/WriteEstimate";
import type { ConsumedCapacity } from "../../ipc/bindings.gen";
import { QueryBar } from "../query/QueryBar";
import { SavedRequests } from "../query/SavedRequests";
import { ScanResults } from "../query/ScanResults";
import { useQueryModel, type ChannelFactory } from "../query/useQueryModel";
import { useDroppedItems } from "../query/useDroppedItems";
import { useCredentialsRenewed } from "../../app/useCredentialsRenewed";
import type { ActiveRead } from "../collections/activeRead";
import { formatUnits } from "../../shared/format";
import { StreamView } from "../streams/StreamView";
import type { TailChannelFactory } from "../streams/useStreamTail";
import { TtlView } from "../ttl/TtlView";
import { SimulationPanel } from "../simulations/SimulationPanel";
import { useCommands } from "../../ipc/CommandsContext";
import "./tables.css";

/** Items drawn in each box of the Collections view (the Query's Limit); the rest are counted. */
const ROWS_PER_BOX = 20;

function keyNamesOf(keys: KeySchema): string[] {
  return keys.sortKey === null ? [keys.partitionKey.name] : [keys.partitionKey.name, keys.sortKey.name];
}

/**
 * The query a collection opens with: every item of it, in sort-key order, a page of 100. `keys`
 * is the key schema of what is read (the table or `index`): a collection of a multi-attribute
 * GSI key is named by the list of its values, asked for one equality each.
 */
function collectionQuery(table: string, keys: KeySchema, value: AttributeValue, index: string | null = null): QueryInput {
  return {
    table,
    index,
    ...collectionPartition(keys, value),
    sortCondition: null,
    scanIndexForward: true,
    limit: 100,
    consistentRead: false,
    projection: null,
    filter: null,
    filterNames: null,
    filterValues: null,
    exclusiveStartKey: null,
  };
}

/**
 * One table: a header (name, keys, figures), the query bar (one query model for every view:
 * `useQueryModel`), and a strip of views, each a tab that keeps its state while another is shown:
 * Collections (the boxes; the one a Query read highlighted, the others faded), Items (what the
 * bar read, as a dashed box to page through and edit, or the collections a Scan met), Indexes
 * side by side, Cost, Code & history, Import/export and Settings (what DescribeTable says;
 * changing and deleting the table; on the embedded engine, its simulations: throttling and lagging
 * reads), Stream (a live tail of its stream) and TTL (what expires, the sweeps,
 * the deletions seen).
 * Alt+1 … Alt+9 switch views; Ctrl+Enter runs the bar's query from anywhere in the tab, Ctrl+J
 * reads its next page.
 * An item can be copied (as JSON, DynamoDB JSON or PutItem code; Mod+C on a row copies DynamoDB
 * JSON), duplicated (the editor opens on its attributes, the key to change) and items pasted.
 */
export function TableScreen({
  profile,
  tableName,
  makeChannel,
  makeTailChannel,
  intent = null,
  onDeleted = () => {},
  clipboard = defaultClipboard(),
  makeBulkChannel,
}: {
  profile: Profile;
  tableName: string;
  makeChannel?: ChannelFactory | undefined;
  /** The channel a stream tail's records arrive on (tests give their own). */
  makeTailChannel?: TailChannelFactory | undefined;
  /** What to show, asked for from outside (the start screen); a new `n` asks again. */
  intent?: TableIntent | null;
  /** The table was deleted (from its Settings). */
  onDeleted?: () => void;
  /** Where copies go (tests give their own). */
  clipboard?: TextClipboard | undefined;
  /** The channel a bulk edit's progress arrives on (tests give their own). */
  makeBulkChannel?: BulkChannelFactory | undefined;
}) {
  // An MFA code or sign-in given in the app-wide prompt: the table and its boxes are read again.
  const renewed = useCredentialsRenewed(profile.id);
  const source = useCommands();
  const { table, stats, setStats, setDescription, retry } = useTable(profile.id, tableName, renewed);
  const [view, setView] = useState<ViewId>("collections");
  const [showMap, setShowMap] = useState(false);
  const [reveal, setReveal] = useState<{ value: AttributeValue; n: number; focus?: boolean } | null>(null);
  const [groupBy, setGroupBy] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const groupKeys =
    table.status !== "ok" ? null : groupBy === null ? table.data.keys : (table.data.indexes.find((i) => i.name === groupBy)?.keys ?? null);
  const rootRef = useRef<HTMLDivElement>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<{ name: string; message: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // The item selected in the Items grid (copy and duplicate act on it), the last copy's outcome,
  // and whether the paste dialog is open.
  const [selectedItem, setSelectedItem] = useState<Item | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const [pasting, setPasting] = useState(false);
  const [bulk, setBulk] = useState(false);
  // The items checked in the Items grid for a bulk edit, by index in the run (a new run clears them).
  const [checked, setChecked] = useState<ReadonlySet<number>>(new Set());
  // The item as the editor last had it (every edit is validated), for the write estimate.
  const [draft, setDraft] = useState<Item | null>(null);
  // The last write saved, with what it reported: shown estimate beside actual.
  const [lastWrite, setLastWrite] = useState<{ existing: Item | null; newItem: Item; actual: ConsumedCapacity | null } | null>(null);
  const model = useQueryModel({ profileId: profile.id, table: table.status === "ok" ? table.data : null, makeChannel });
  const run = model.run;
  const paid = profile.connection.kind !== "embedded";
  const dropped = useDroppedItems({ profileId: profile.id, run, automatic: !paid });
  const runRequest = run?.request ?? null;
  useEffect(() => setChecked(new Set()), [runRequest]);
  const queryPages = run?.kind === "query" ? run.pages : [];
  const recordCapacity = useRecordCapacity();

  // A Query reads one box, of the table or of the index it names: the Collections view is
  // grouped by that index (or the table) and brings the box into view.
  const readIndex = run === null ? null : (run.request.indexName ?? null);
  const readValue = run?.kind === "query" && run.request.keyCondition ? (run.request.keyCondition.partitionValue as AttributeValue) : null;
  const readKey = readValue === null ? null : collectionKey(readValue);
  useEffect(() => {
    if (readValue === null) return;
    setGroupBy(readIndex);
    // Scrolled to, not focused: the user is typing in the bar, or reading another view.
    setReveal((r) => ({ value: readValue, n: (r?.n ?? 0) + 1, focus: false }));
  }, [readKey, readIndex, run?.kind === "query" ? run.request : null]);

  const activeRead = useMemo<ActiveRead | null>(() => {
    // Drawn on the run it read: the table's, or the index's when the view is grouped by it.
    if (run === null || readIndex !== groupBy) return null;
    if (run.kind === "query") {
      if (readKey === null) return null;
      return { kind: "query", key: readKey, pages: run.pages, loading: run.loading, dropped: dropped.dropped, showDropped: paid ? dropped.show : null };
    }
    const keysRead = table.status !== "ok" ? null : readIndex === null ? table.data.keys : (table.data.indexes.find((i) => i.name === readIndex)?.keys ?? null);
    const pk = keysRead?.partitionKey.name ?? null;
    const returned = new Map<string, number>();
    let attributed = true;
    for (const page of run.pages) {
      for (const item of page.items) {
        const value = pk === null ? undefined : item[pk];
        if (value === undefined) {
          attributed = false;
          continue;
        }
        const key = collectionKey(value);
        returned.set(key, (returned.get(key) ?? 0) + 1);
      }
    }
    return { kind: "scan", returned, completed: run.summary?.end === "completed", attributed };
  }, [run, readKey, readIndex, groupBy, table, dropped.dropped, dropped.show, paid]);

  // Alt+1 … Alt+9, Ctrl+Enter and Ctrl+J: only the table screen on show answers (the others stay
  // mounted, hidden). The bar answers Ctrl+Enter itself when the focus is in it, and a grid
  // answers Ctrl+J itself (it marks the event handled).
  const executeRef = useRef(model.execute);
  executeRef.current = model.execute;
  const loadMoreRef = useRef(model.loadMore);
  loadMoreRef.current = model.loadMore;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const shortcut = shortcutOf(event);
      if (shortcut !== "go-to-view" && shortcut !== "run-query" && shortcut !== "next-page") return;
      const root = rootRef.current;
      if (root === null || root.closest("[hidden]") !== null || event.defaultPrevented) return;
      if (shortcut === "next-page") {
        if (document.querySelector('[role="dialog"]') !== null) return;
        // The next page of the Query on show (nothing when there is none).
        event.preventDefault();
        loadMoreRef.current();
        return;
      }
      if (shortcut === "run-query") {
        if (document.querySelector('[role="dialog"]') !== null) return;
        event.preventDefault();
        executeRef.current();
        return;
      }
      const digit = event.code?.startsWith("Digit") ? Number(event.code.slice(5)) : Number(event.key);
      const target = VIEW_ORDER[digit - 1];
      if (target === undefined) return;
      event.preventDefault();
      setView(target.id);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const loadQueryInput = model.loadQueryInput;
  const runInput = useCallback(
    (input: QueryInput) => {
      setNotice(null);
      void loadQueryInput(input, true);
    },
    [loadQueryInput],
  );

  // Asked from outside: the view, its grouping, a box, a Query, as the user would have chosen them
  // (once the table is described: the query bar builds its request from the key schema).
  const carriedOut = useRef(0);
  const described = table.status === "ok";
  const [hotLoad, setHotLoad] = useState<HotLoad | null>(null);
  useEffect(() => {
    if (intent === null || !described || carriedOut.current === intent.n) return;
    carriedOut.current = intent.n;
    setView(intent.view);
    if (intent.groupBy !== undefined) setGroupBy(intent.groupBy);
    if (intent.showMap !== undefined) setShowMap(intent.showMap);
    if (intent.reveal !== undefined) setReveal((r) => ({ value: intent.reveal!, n: (r?.n ?? 0) + 1 }));
    if (intent.query !== undefined) runInput(intent.query);
    if (intent.request !== undefined) model.loadRequest(intent.request, true);
    if (intent.hotReadsPerSecond !== undefined) setHotLoad({ readsPerSecond: intent.hotReadsPerSecond, n: intent.n });
    // One intent is carried out once: `n` names it.
  }, [intent?.n, described]);

  // Stable across renders: the editor re-validates when this function changes, and validating
  // records the draft here, which re-renders this screen.
  const validate = useCallback(
    async (item: Item): Promise<ItemValidation> => {
      setDraft(item);
      const result = await unwrap(source.checkItem(profile.id, tableName, item));
      if (result.status === "ok") return { sizeBytes: result.data.sizeBytes ?? 0, problems: result.data.problems };
      return { sizeBytes: 0, problems: [{ path: "", message: result.status === "error" ? result.error.message : "Checking…" }] };
    },
    [profile.id, tableName, source],
  );

  const readKeys = model.schema;
  const suggestions = useKeySuggestions({
    profileId: profile.id,
    table: tableName,
    index: model.form.index,
    tableStats: stats.status === "ok" ? stats.data : null,
    typed: model.form.partition,
    stringKey: readKeys !== null && readKeys.partitionKey.type === "S" && (readKeys.morePartitionKeys ?? []).length === 0,
  });
  // The table's largest collection, offered in the Items view before anything is read.
  const largest = stats.status === "ok" ? (stats.data.collections[0]?.partitionValue ?? null) : null;

  if (table.status === "loading") return <p className="muted">Loading {tableName}…</p>;
  if (table.status === "error") {
    return (
      <p className="status-error" role="alert" data-testid="table-error">
        {errorTitle(table.error.code)}: {table.error.message}{" "}
        <button type="button" onClick={retry}>
          Try again
        </button>
      </p>
    );
  }
  const description = table.data;
  const queriedIndex = run?.kind === "query" ? (run.request.indexName ?? null) : null;
  const queriedKeys =
    queriedIndex === null ? description.keys : (description.indexes.find((i) => i.name === queriedIndex)?.keys ?? description.keys);
  const keyNames = keyNamesOf(description.keys);


  const recentRefresh = (run?.pages.length ?? 0) + (run === null ? 0 : run.kind === "query" ? (run.loading ? 1000 : 0) : 0);
  const failed = (error: UiError) => setSaveError({ name: error.exception ?? errorTitle(error.code), message: error.message });

  const save = async (item: Item) => {
    if (editing === null || editing.kind === "delete") return;
    setSaving(true);
    setSaveError(null);
    const expect = editing.kind === "edit" ? { kind: "unchanged" as const, original: editing.original } : { kind: "absent" as const };
    const result = await unwrap(source.putItem(profile.id, tableName, item, expect));
    setSaving(false);
    if (result.status === "error") {
      failed(result.error);
      return;
    }
    if (result.status !== "ok") return;
    const units = result.data.consumedCapacity?.total ?? 0;
    recordCapacity("write", units);
    setLastWrite({ existing: editing.kind === "edit" ? editing.original : null, newItem: item, actual: result.data.consumedCapacity });
    if (editing.kind === "edit") model.replaceItem(keyNames, editing.original, item);
    setNotice(`${editing.kind === "edit" ? "Saved" : "Created"}: ${formatUnits(units)} WCU consumed.`);
    setEditing(null);
  };

  const remove = async () => {
    if (editing?.kind !== "delete") return;
    setSaving(true);
    const key = Object.fromEntries(keyNames.map((name) => [name, editing.original[name]!]));
    const result = await unwrap(
      source.deleteItem(profile.id, tableName, key, { kind: "unchanged", original: editing.original }),
    );
    setSaving(false);
    if (result.status === "error") {
      failed(result.error);
      return;
    }
    if (result.status !== "ok") return;
    recordCapacity("write", result.data.consumedCapacity?.total ?? 0);
    model.replaceItem(keyNames, editing.original, null);
    setNotice(`Deleted: ${formatUnits(result.data.consumedCapacity?.total ?? 0)} WCU consumed.`);
    setEditing(null);
  };

  const copyItem = (item: Item) => {
    void copyText(clipboard, itemAsText(tableName, item, "dynamo"), "the item as DynamoDB JSON").then(setCopied);
  };
  const duplicate = (item: Item) => {
    setSaveError(null);
    setDraft(null);
    setEditing({ kind: "create", template: item, duplicateOf: item });
  };

  const openCollection = (value: AttributeValue) => {
    runInput(collectionQuery(tableName, description.keys, value));
    setView("items");
  };
  // A run on an index, or with a projection, returns part of each item. Saving an edit puts the
  // whole item, so an item opened from such a run is first read whole from the table (strongly
  // consistent, by its key): editing the part would drop every attribute the run left out.
  const partialRun = run !== null && ((run.request.indexName ?? null) !== null || !!run.request.projection);
  const openItem = async (item: Item) => {
    setSaveError(null);
    setDraft(null);
    if (!partialRun) {
      setEditing({ kind: "edit", original: item });
      return;
    }
    const names = keyNamesOf(description.keys);
    const key = Object.fromEntries(names.flatMap((name) => (item[name] === undefined ? [] : [[name, item[name]!]])));
    const refuse = (sentence: string) => {
      setNotice(sentence);
      setView("items");
    };
    if (Object.keys(key).length !== names.length) {
      refuse(`This row does not carry the item's whole key (${names.join(", ")}): the projection left part of it out, so the item cannot be opened for editing.`);
      return;
    }
    const result = await unwrap(source.getItem(profile.id, tableName, key, true));
    if (result.status === "ok" && result.data.item !== null) {
      recordCapacity("read", result.data.consumedCapacity?.total ?? 0);
      setEditing({ kind: "edit", original: result.data.item });
    } else if (result.status === "ok") {
      refuse("This item is no longer in the table: it was deleted after the query read it.");
    } else if (result.status === "error") {
      refuse(`The whole item could not be read for editing: ${result.error.message}`);
    }
  };
  // A box of the run regrouped by an index opens as a Query of that index.
  const openBox = (value: AttributeValue) => {
    runInput(collectionQuery(tableName, groupKeys ?? description.keys, value, groupBy));
    setView("items");
  };
  // The items the run read whole from the table: an index's entries and projected items are parts
  // of items, and a bulk edit's undo puts back the items as staged, so they are not staged.
  const readItems = run === null || partialRun ? [] : run.pages.flatMap((p) => p.items);
  const bulkItems = checked.size === 0 ? readItems : readItems.filter((_, i) => checked.has(i));
  const seenAttributes = [...new Set((run?.pages ?? []).slice(0, 3).flatMap((p) => p.items.flatMap((i) => Object.keys(i))))];
  const lastItem = queryPages.at(-1)?.items.at(-1) ?? null;
  const runError = run?.kind === "query" ? run.error : null;
  const scannedIndex = run?.kind === "scan" ? (run.request.indexName ?? null) : null;
  const scannedKeys =
    scannedIndex === null ? description.keys : (description.indexes.find((i) => i.name === scannedIndex)?.keys ?? description.keys);
  const toggleChecked = (i: number) =>
    setChecked((c) => {
      const next = new Set(c);
      if (next.has(i)) next.delete(i);
      else next.add(i);
      return next;
    });

  // Where the statistics are not free (AWS, any endpoint) the run is drawn from what a scan of
  // the table or index gathered: the gate runs that scan, and a new gathering lists the run again.
  const gate = paid ? (
    <StatisticsGate
      profileId={profile.id}
      table={tableName}
      index={groupBy}
      onGathered={(gathered) => {
        if (gathered.index === null) setStats({ status: "ok", data: gathered });
        setGeneration((g) => g + 1);
      }}
    />
  ) : null;
  const statsPanel = (
    <>
      {stats.status === "loading" && <p className="muted">Reading the collection statistics…</p>}
      {stats.status === "error" && !(stats.error.code === "NOT_FOUND" && paid) && (
        <p className="status-error" role="alert" data-testid="stats-error">
          The collection statistics could not be read: {stats.error.message}{" "}
          <button type="button" onClick={retry}>
            Try again
          </button>
        </p>
      )}
      {(stats.status === "ok" || (paid && stats.status === "error" && stats.error.code === "NOT_FOUND")) && (
        <CollectionsPane
          profileId={profile.id}
          index={groupBy}
          keys={groupKeys}
          generation={generation + renewed}
          table={description}
          onOpen={openBox}
          onGroupBy={setGroupBy}
          reveal={reveal}
          rowsPerBox={ROWS_PER_BOX}
          activeRead={activeRead}
          gate={gate}
          map={
            stats.status === "ok" && showMap && (
              <CollectionMap
                stats={stats.data.collections}
                keyName={description.keys.partitionKey.name}
                onOpen={(value) => {
                  // The map draws the table's collections: show them in the table's run.
                  setGroupBy(null);
                  setReveal((r) => ({ value, n: (r?.n ?? 0) + 1 }));
                }}
                // Enough boxes to see the shape of the table while each stays big enough to read.
                maxBoxes={80}
                sizeLimit={stats.data.collectionSizeLimit}
                openHint="brings its box into view below"
              />
            )
          }
          tools={
            stats.status === "ok" && (
              <button type="button" aria-pressed={showMap} onClick={() => setShowMap(!showMap)} data-testid="toggle-map">
                {showMap ? "Hide the map" : "Show the map"}
              </button>
            )
          }
          // An index's box holds what the index projects, not the whole item: its rows open the box.
          onOpenItem={groupBy === null ? openItem : undefined}
          onCopyItem={copyItem}
        />
      )}
    </>
  );

  const views: ViewInfo[] = VIEW_ORDER.map(({ id, label }) => ({
    id,
    label,
    render: () => renderView(id),
    fill: id === "collections",
  }));

  function renderView(id: ViewId) {
    switch (id) {
      case "collections":
        return (
          <section className="table-section collections-section" aria-label="Collections">
            {statsPanel}
          </section>
        );
      case "items":
        return (
          <>
            <section className="table-section" aria-label="Collection">
              <div className="item-actions">
                <button type="button" disabled={profile.readOnly} onClick={() => setEditing({ kind: "create", template: null })}>
                  New item
                </button>
                <button
                  type="button"
                  disabled={profile.readOnly || lastItem === null}
                  onClick={() => lastItem !== null && setEditing({ kind: "create", template: lastItem })}
                >
                  Duplicate last item
                </button>
                <button type="button" disabled={profile.readOnly} onClick={() => setPasting(true)}>
                  Paste items…
                </button>
                <button type="button" aria-pressed={bulk} disabled={readItems.length === 0} onClick={() => setBulk(!bulk)}>
                  Bulk edit…
                </button>
                <span className="item-selected-actions" aria-label="Selected item">
                  <button type="button" disabled={profile.readOnly || selectedItem === null} onClick={() => selectedItem !== null && duplicate(selectedItem)}>
                    Duplicate selected
                  </button>
                  <ItemCopy table={tableName} item={selectedItem} clipboard={clipboard} />
                </span>
                {profile.readOnly && <span className="muted">This connection is read-only.</span>}
              </div>
              {notice !== null && (
                <p className="test-ok" role="status" data-testid="write-notice">
                  {notice}
                </p>
              )}
              {notice !== null && lastWrite !== null && (
                <WriteEstimate
                  profileId={profile.id}
                  table={tableName}
                  write={{ kind: "put", existing: lastWrite.existing, newItem: lastWrite.newItem }}
                  actual={lastWrite.actual}
                />
              )}
              {bulk && (
                <BulkPanel
                  profileId={profile.id}
                  table={tableName}
                  keys={description.keys}
                  items={bulkItems}
                  scope={checked.size === 0 ? "read" : "checked"}
                  makeChannel={makeBulkChannel}
                  readOnly={profile.readOnly}
                  onWritten={() => {
                    // The boxes and the run are read again: the grid shows what the edit left.
                    setGeneration((g) => g + 1);
                    model.execute();
                  }}
                />
              )}
              {run === null && (
                <p className="muted" data-testid="items-empty">
                  Run a Query from the bar above to read one collection here, page by page, or a Scan to walk them all.
                  {largest !== null && (
                    <>
                      {" "}
                      <button type="button" className="link-button" data-testid="items-open-largest" onClick={() => openCollection(largest)}>
                        Read the largest collection, {description.keys.partitionKey.name} = {attributeText(largest)}
                      </button>
                    </>
                  )}
                </p>
              )}
              {run?.kind === "query" && run.request.keyCondition && run.pages.length > 0 && (
                <CollectionBox
                  keys={queriedKeys}
                  tableKeys={queriedIndex === null ? null : description.keys}
                  partitionValue={run.request.keyCondition.partitionValue as AttributeValue}
                  pages={run.pages}
                  loading={run.loading}
                  onLoadMore={model.loadMore}
                  onSelect={setSelectedItem}
                  onCopy={copyItem}
                  checked={bulk && queriedIndex === null ? checked : undefined}
                  onCheck={bulk && queriedIndex === null ? toggleChecked : undefined}
                  onEdit={(item) => void openItem(item)}
                  loadError={
                    runError !== null && run.pages.length > 0
                      ? { name: runError.exception ?? errorTitle(runError.code), message: runError.message }
                      : null
                  }
                />
              )}
              {run?.kind === "scan" && (
                <section className="table-section" aria-label="Scan" data-testid="section-scan">
                  {run.pages.length > 0 && (
                    <CollectionBox
                      keys={scannedKeys}
                      tableKeys={scannedIndex === null ? null : description.keys}
                      partitionValue={null}
                      title={`Items the Scan of ${scannedIndex ?? tableName} returned`}
                      pages={run.pages}
                      loading={run.running}
                      onLoadMore={null}
                      onSelect={setSelectedItem}
                      onCopy={copyItem}
                      checked={bulk && scannedIndex === null ? checked : undefined}
                      onCheck={bulk && scannedIndex === null ? toggleChecked : undefined}
                      onEdit={(item) => void openItem(item)}
                    />
                  )}
                  <ScanResults table={description} run={run} onOpenCollection={openCollection} />
                </section>
              )}
            </section>
          </>
        );
      case "indexes":
        return (
          <section className="table-section" data-testid="section-indexes" aria-label="Indexes side by side">
            {description.indexes.length > 0 ? (
              <IndexesView profileId={profile.id} table={description} />
            ) : (
              <p className="muted">
                {description.name} has no secondary index: every item lives only in its collection of the table. A GSI or an
                LSI would regroup the same items by other keys, side by side here.
              </p>
            )}
          </section>
        );
      case "cost":
        return (
          <section className="table-section" data-testid="section-cost" aria-label="Cost of this query">
            <CostPanel
              profileId={profile.id}
              table={description}
              query={model.ranInput ?? model.queryInput}
              lastPage={model.ranInput !== null ? (queryPages.at(-1) ?? null) : null}
              hotLoad={hotLoad}
              scan={
                model.request?.operation === "Scan"
                  ? {
                      table: model.request.tableName,
                      index: model.request.indexName ?? null,
                      consistentRead: model.request.consistentRead ?? false,
                      filtered: !!model.built?.request.filterExpression,
                    }
                  : null
              }
            />
          </section>
        );
      case "code":
        return (
          <>
            <section className="table-section" data-testid="section-builder" aria-label="Code of the query">
              <h3>Code of the query in the bar</h3>
              {model.request === null ? (
                <p className="muted">Fill in the query bar above: its request appears here as code for every SDK.</p>
              ) : (
                <CodePanel request={model.request} />
              )}
              <SavedRequests
                profileId={profile.id}
                table={description.name}
                request={model.request}
                filter={model.form.filter}
                onLoad={(saved) => {
                  const content = saved.content;
                  if (content.kind === "request") model.loadRequest(content.request);
                  else if (content.state.parameter === "FilterExpression") {
                    const filter = content.state.state;
                    model.setForm((f) => ({ ...f, filter }));
                  }
                }}
              />
            </section>
            <section className="table-section" data-testid="section-history" aria-label="History">
              <h3>History</h3>
              <QueryHistory
                profileId={profile.id}
                table={tableName}
                refresh={`${recentRefresh}`}
                onRun={(input) => {
                  runInput(input);
                  setView("items");
                }}
                onLoad={model.loadRequest}
              />
            </section>
          </>
        );
      case "transfer":
        return (
          <section className="table-section" data-testid="section-transfer" aria-label="Import and export">
            <TransferPanel profileId={profile.id} table={tableName} query={model.queryInput} readOnly={profile.readOnly} />
          </section>
        );
      case "stream":
        return (
          <section className="table-section" data-testid="section-stream" aria-label="Stream">
            <StreamView profile={profile} table={description} makeChannel={makeTailChannel} onOpenSettings={() => setView("settings")} />
          </section>
        );
      case "ttl":
        return (
          <section className="table-section" data-testid="section-ttl" aria-label="Time to live">
            <TtlView profile={profile} table={description} makeChannel={makeTailChannel} onOpenSettings={() => setView("settings")} />
          </section>
        );
      case "settings":
        return (
          <section className="table-section" aria-label="Settings">
            <TableOverview table={description} />
            <h3 className="settings-heading">Change</h3>
            <TableSettings profile={profile} table={description} onChanged={setDescription} />
            {profile.connection.kind === "embedded" && (
              <>
                <h3 className="settings-heading">Simulations of the embedded engine</h3>
                <SimulationPanel profileId={profile.id} table={tableName} active={view === "settings"} />
              </>
            )}
            <h3 className="settings-heading">Delete</h3>
            <DeleteTable profile={profile} table={tableName} onDeleted={onDeleted} />
          </section>
        );
    }
  }

  return (
    <div className="table-screen" data-testid={`table-screen-${tableName}`} ref={rootRef}>
      <TableHeader table={description} stats={stats.status === "ok" ? stats.data : null} profile={profile} />
      <QueryBar table={description} model={model} suggestions={suggestions} seenAttributes={seenAttributes} />
      <ViewTabs views={views} active={view} onSelect={setView} label={`Views of ${description.name}`} />
      {copied !== null && (
        <p className="muted" role="status" data-testid="copy-notice">
          {copied}
        </p>
      )}
      {pasting && (
        <div className="dialog-backdrop">
          <div role="dialog" aria-modal="true" aria-label="Paste items" className="dialog dialog-wide">
            <PasteItems
              profileId={profile.id}
              table={tableName}
              keys={description.keys}
              readOnly={profile.readOnly}
              onWritten={(items, units) => {
                recordCapacity("write", units);
                setNotice(`Pasted ${items.length} ${items.length === 1 ? "item" : "items"}: ${formatUnits(units)} WCU consumed.`);
                setGeneration((g) => g + 1);
              }}
              onClose={() => setPasting(false)}
            />
          </div>
        </div>
      )}
      {editing !== null && (
        <ItemDialog
          editing={editing}
          profileId={profile.id}
          table={tableName}
          keys={description.keys}
          readOnly={profile.readOnly}
          clipboard={clipboard}
          draft={draft}
          validate={validate}
          saving={saving}
          saveError={saveError}
          onSave={(item) => void save(item)}
          onRemove={() => void remove()}
          onEdit={setEditing}
          onDuplicate={duplicate}
          onClose={() => setEditing(null)}
        />
      )}
    </div>
  );
}
