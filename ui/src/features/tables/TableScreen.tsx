import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { AttributeValue, KeySchema, Profile, QueryInput } from "../../ipc/bindings.gen";
import { errorTitle } from "../../ipc/result";
import { CollectionMap } from "../explorer/CollectionMap";
import type { Item } from "../../shared/attributeValue";
import { useFleetingNotice } from "../../shared/useFleetingNotice";
import { collectionKey, collectionPartition } from "../../shared/collectionValue";
import { indexKeys, keyNames } from "../../shared/keySchema";
import { copyText, defaultClipboard, type TextClipboard } from "../items/ItemCopy";
import { itemAsText } from "../items/itemCopy";
import type { BulkChannelFactory } from "../bulk/BulkPanel";
import { TableOverview } from "./TableOverview";
import { ItemDialog } from "./ItemDialog";
import { ItemsView } from "./ItemsView";
import { useItemWrites } from "./useItemWrites";
import { useTableShortcuts } from "./useTableShortcuts";
import { StatisticsGate } from "../collections/StatisticsGate";
import { useKeySuggestions } from "../query/useKeySuggestions";
import { TableHeader } from "./TableHeader";
import { CollectionsPane } from "../collections/CollectionsPane";
import type { TableIntent } from "../../shared/tableIntent";
import { useTable } from "./useTable";
import { VIEW_ORDER, ViewTabs, type ViewId, type ViewInfo } from "./ViewTabs";
import { TransferPanel } from "./TransferPanel";
import { DeleteTable } from "./DeleteTable";
import { TableSettings } from "./TableSettings";
import { QueryHistory } from "./QueryHistory";
import { CodePanel } from "../builder/CodePanel";
import { CostPanel } from "../costs/CostPanel";
import { ThisRead, type ThisReadProps } from "../costs/ThisRead";
import { CollectionCard } from "../collections/CollectionCard";
import type { HotLoad } from "../costs/HotPartitions";
import { IndexesView } from "../indexes/IndexesView";
import { ranCollection, typedCollection } from "../indexes/barCollection";
import { QueryBar } from "../query/QueryBar";
import { SavedRequests } from "../query/SavedRequests";
import { withIndex } from "../query/model";
import { useQueryModel, type ChannelFactory } from "../query/useQueryModel";
import { useDroppedItems } from "../query/useDroppedItems";
import { useCredentialsRenewed } from "../../app/useCredentialsRenewed";
import { useTableWritten } from "../../shared/useTableWritten";
import { scanReturns, type ActiveRead } from "../collections/activeRead";
import { StreamView } from "../streams/StreamView";
import type { TailChannelFactory } from "../streams/useStreamTail";
import { TtlView } from "../ttl/TtlView";
import { SimulationPanel } from "../simulations/SimulationPanel";
import { ViewBoundary } from "../../shared/ViewBoundary";
import "./tables.css";

/**
 * The views that read with the query bar, so it is shown above them: Collections (the box a Query
 * read), Items (its pages), Indexes side by side (its read beside the index's), Cost (its estimate),
 * Code & history (its request as code, and what it ran) and Import/export (an export of "every page
 * of the current query" is the bar's). Settings, Stream and TTL never read with it: there the bar is
 * hidden, kept as it was for the next view that uses it.
 */
const BAR_VIEWS: ReadonlySet<ViewId> = new Set<ViewId>(["collections", "items", "indexes", "cost", "code", "transfer"]);

/** Items drawn in each box of the Collections view (the Query's Limit); the rest are counted. */
const ROWS_PER_BOX = 20;

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
 * `useQueryModel`; shown above the views that read with it, `BAR_VIEWS`), and a strip of views, each a tab that keeps its state while another is shown:
 * Collections (the boxes; the one a Query read highlighted, the others faded), Items (what the
 * bar read, as a dashed box to page through and edit, or the collections a Scan met), Indexes
 * side by side, Cost, Code & history, Import/export and Settings (what DescribeTable says;
 * changing and deleting the table; on the embedded engine, its simulations: throttling and lagging
 * reads), Stream (a live tail of its stream) and TTL (what expires, the sweeps,
 * the deletions seen).
 * Alt+1 … Alt+9 switch views; Ctrl+Enter runs the bar's query and Ctrl+J reads its next page from
 * anywhere in the tab while the bar is shown (not on Settings, Stream or TTL) (`useTableShortcuts`).
 * An item can be opened from a row of any view, edited, copied (as JSON, DynamoDB JSON or PutItem
 * code; Mod+C on a row copies DynamoDB JSON), duplicated (the editor opens on its attributes, the
 * key to change) and items pasted (`useItemWrites`, the dialog in `ItemDialog`, the Items view's
 * actions in `ItemsView`).
 */
type TableScreenProps = Parameters<typeof TableScreenContent>[0];

/**
 * A table's tab: a fault in one view takes down that view alone (its neighbours and the tab's
 * header and query bar stay), and one in the tab's frame the tab alone, never the window.
 */
export function TableScreen(props: TableScreenProps) {
  return (
    <ViewBoundary what={`The tab of ${props.tableName}`}>
      <TableScreenContent {...props} />
    </ViewBoundary>
  );
}

function TableScreenContent({
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
  const { table, stats, setStats, setDescription, retry } = useTable(profile.id, tableName, renewed);
  const [view, setView] = useState<ViewId>("collections");
  const [showMap, setShowMap] = useState(false);
  // A box to bring into view names a key value of one grouping (`index`; absent: the table): a
  // value of the table's partition key means nothing to an index keyed on another attribute, so it
  // is shown only while the run is grouped as it was asked.
  const [reveal, setReveal] = useState<{ value: AttributeValue; n: number; focus?: boolean; index?: string | null } | null>(null);
  const [groupBy, setGroupBy] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  // Items saved, pasted, deleted or imported from anywhere in the app: the boxes in sight are read again.
  const written = useTableWritten(profile.id, tableName);
  const groupKeys = table.status !== "ok" ? null : indexKeys(table.data, groupBy);
  const rootRef = useRef<HTMLDivElement>(null);
  // The last copy's outcome, until the next key or click.
  const [copied, setCopied] = useFleetingNotice();
  const model = useQueryModel({ profileId: profile.id, table: table.status === "ok" ? table.data : null, makeChannel });
  const run = model.run;
  const paid = profile.connection.kind !== "embedded";
  const dropped = useDroppedItems({ profileId: profile.id, run, automatic: !paid });
  const queryPages = run?.kind === "query" ? run.pages : [];
  // A run on an index, or with a projection, returns part of each item: an item opened from it is
  // first read whole (`useItemWrites`).
  const partialRun = run !== null && ((run.request.indexName ?? null) !== null || !!run.request.projection);
  const writes = useItemWrites({
    profileId: profile.id,
    table: tableName,
    keys: table.status === "ok" ? table.data.keys : null,
    partialRun,
    replaceItem: model.replaceItem,
    onRefused: (sentence) => {
      writes.setNotice(sentence);
      setView("items");
    },
  });

  // A Query reads one box, of the table or of the index it names: the Collections view is
  // grouped by that index (or the table) and brings the box into view.
  const readIndex = run === null ? null : (run.request.indexName ?? null);
  const readCondition = run?.kind === "query" ? (run.request.keyCondition ?? null) : null;
  // The box is named as the run names it: a multi-attribute key's by the list of its values (rule B.18.3).
  const readValue = useMemo(
    () =>
      readCondition === null
        ? null
        : (readCondition.morePartition ?? []).length === 0
          ? (readCondition.partitionValue as AttributeValue)
          : ({ L: [readCondition.partitionValue, ...readCondition.morePartition!.map((e) => e.value)] } as AttributeValue),
    [readCondition],
  );
  const readKey = readValue === null ? null : collectionKey(readValue);
  useEffect(() => {
    if (readValue === null) return;
    setGroupBy(readIndex);
    // Scrolled to, not focused: the user is typing in the bar, or reading another view.
    setReveal((r) => ({ value: readValue, n: (r?.n ?? 0) + 1, focus: false, index: readIndex }));
  }, [readKey, readIndex, run?.kind === "query" ? run.request : null]);

  // Which items a filtered Scan returned, once it has read the whole table: a walked box marks
  // its rows by it (computed once per state of the run, not on every keystroke in the bar).
  const tableKeyNames = table.status === "ok" ? keyNames(table.data.keys) : null;
  const tableKeysText = JSON.stringify(tableKeyNames);
  const scanFiltered = run?.kind === "scan" && !!run.request.filter;
  const returns = useMemo(
    () =>
      run?.kind !== "scan" || !scanFiltered || tableKeyNames === null || run.summary?.end !== "completed" || !run.attributed
        ? null
        : scanReturns(run.pages, tableKeyNames, run.notKept),
    [run, scanFiltered, tableKeysText],
  );
  const activeRead = useMemo<ActiveRead | null>(() => {
    // Drawn on the run it read: the table's, or the index's when the view is grouped by it.
    if (run === null || readIndex !== groupBy) return null;
    if (run.kind === "query") {
      if (readKey === null) return null;
      return { kind: "query", key: readKey, pages: run.pages, loading: run.loading, dropped: dropped.dropped, showDropped: paid ? dropped.show : null, stale: model.stale };
    }
    return {
      kind: "scan",
      returned: run.met,
      attributed: run.attributed,
      completed: run.summary?.end === "completed",
      filtered: scanFiltered,
      returns,
      stale: model.stale,
    };
  }, [run, readKey, readIndex, groupBy, dropped.dropped, dropped.show, paid, model.stale, scanFiltered, returns]);

  useTableShortcuts(rootRef, { execute: model.execute, loadMore: model.loadMore, setView, barShown: BAR_VIEWS.has(view) });

  const loadQueryInput = model.loadQueryInput;
  const setNotice = writes.setNotice;
  const runInput = useCallback(
    (input: QueryInput) => {
      setNotice(null);
      void loadQueryInput(input, true);
    },
    [loadQueryInput, setNotice],
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
    const grouping = intent.groupBy !== undefined ? intent.groupBy : groupBy;
    if (intent.reveal !== undefined) setReveal((r) => ({ value: intent.reveal!, n: (r?.n ?? 0) + 1, index: grouping }));
    if (intent.query !== undefined) runInput(intent.query);
    if (intent.request !== undefined) model.loadRequest(intent.request, true);
    if (intent.hotReadsPerSecond !== undefined) setHotLoad({ readsPerSecond: intent.hotReadsPerSecond, n: intent.n });
    // One intent is carried out once: `n` names it.
  }, [intent?.n, described]);

  // The query bar reads what the run is grouped by: regrouped by an index (by the picker, the
  // start screen or the map), the bar's Read follows, its key values kept only where the index has
  // the same key (`withIndex`), so a table's key value never lands in an index's key. (A Query run
  // on an index regroups the run by it: the two always name the same thing.)
  // (On a change of the grouping only: a request loaded into the bar as the table opens is left as it is.)
  const setForm = model.setForm;
  const lastGroupBy = useRef(groupBy);
  useEffect(() => {
    if (table.status !== "ok" || lastGroupBy.current === groupBy) return;
    lastGroupBy.current = groupBy;
    const described = table.data;
    setForm((f) => (f.index === groupBy ? f : withIndex(f, described, groupBy)));
  }, [groupBy, table.status === "ok" ? table.data : null, setForm]);

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
        {errorTitle(table.error)}: {table.error.message}{" "}
        <button type="button" onClick={retry}>
          Try again
        </button>
      </p>
    );
  }
  const description = table.data;
  const recentRefresh = (run?.pages.length ?? 0) + (run === null ? 0 : run.kind === "query" ? (run.loading ? 1000 : 0) : 0);
  const copyItem = (item: Item) => {
    void copyText(clipboard, itemAsText(tableName, item, "dynamo"), "the item as DynamoDB JSON").then(setCopied);
  };

  const openCollection = (value: AttributeValue) => {
    runInput(collectionQuery(tableName, description.keys, value));
    setView("items");
  };
  // A box of the run regrouped by an index opens as a Query of that index.
  const openBox = (value: AttributeValue) => {
    runInput(collectionQuery(tableName, groupKeys ?? description.keys, value, groupBy));
    setView("items");
  };
  // The last read's figures beside the run it is drawn on.
  const thisRead: ThisReadProps["read"] | null =
    activeRead === null || run === null
      ? null
      : run.kind === "query"
        ? model.ranInput === null
          ? null
          : { kind: "query", input: model.ranInput, pages: run.pages, loading: run.loading }
        : {
            kind: "scan",
            table: run.request.tableName,
            index: run.request.indexName ?? null,
            consistentRead: run.request.consistentRead ?? false,
            pages: run.pages,
            running: run.running,
            completed: run.summary?.end === "completed",
          };
  // Whether the Query the bar is set to is the one that ran last (its figures are the bar's).
  const barRan = model.ranInput !== null && model.queryInput !== null && JSON.stringify(model.ranInput) === JSON.stringify(model.queryInput);
  const seenAttributes = [...new Set((run?.pages ?? []).slice(0, 3).flatMap((p) => p.items.flatMap((i) => Object.keys(i))))];

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
          written={written}
          table={description}
          onOpen={openBox}
          onGroupBy={setGroupBy}
          reveal={reveal !== null && (reveal.index ?? null) === groupBy ? reveal : null}
          rowsPerBox={ROWS_PER_BOX}
          activeRead={activeRead}
          gate={gate}
          map={
            stats.status === "ok" && showMap && (
              <CollectionMap
                stats={stats.data.collections}
                totals={{ collections: stats.data.distinctPartitionKeys, items: stats.data.itemCount, bytes: stats.data.sizeBytes }}
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
          aside={
            thisRead !== null && (
              <>
                <ThisRead profileId={profile.id} read={thisRead} onDetails={() => setView("cost")} />
                {thisRead.kind === "query" && readValue !== null && (
                  <CollectionCard profileId={profile.id} table={description} index={readIndex} value={readValue} />
                )}
              </>
            )
          }
          onOpenItem={groupBy === null ? writes.openItem : undefined}
          onCopyItem={copyItem}
        />
      )}
    </>
  );

  const views: ViewInfo[] = VIEW_ORDER.map(({ id, label }) => ({
    id,
    label,
    render: () => <ViewBoundary what={`The ${label} view`}>{renderView(id)}</ViewBoundary>,
    fill: id === "collections" || id === "items",
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
          <ItemsView
            profile={profile}
            table={description}
            model={model}
            writes={writes}
            partialRun={partialRun}
            largest={largest}
            clipboard={clipboard}
            makeBulkChannel={makeBulkChannel}
            onOpenCollection={openCollection}
            onCopyItem={copyItem}
            onTableChanged={() => setGeneration((g) => g + 1)}
          />
        );
      case "indexes":
        return (
          <section className="table-section" data-testid="section-indexes" aria-label="Indexes side by side">
            {description.indexes.length > 0 ? (
              <IndexesView
                profileId={profile.id}
                table={description}
                bar={{ ran: ranCollection(run, description), typed: typedCollection(model.form, description) }}
                shown={view === "indexes"}
              />
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
          <section className="table-section" data-testid="section-cost" aria-label="Cost">
            <CostPanel
              profileId={profile.id}
              table={description}
              query={model.queryInput}
              lastPage={barRan ? (queryPages.at(-1) ?? null) : null}
              ran={model.ranInput !== null && !barRan ? { input: model.ranInput, lastPage: queryPages.at(-1) ?? null } : null}
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
    <div className={`table-screen${BAR_VIEWS.has(view) ? "" : " table-screen-no-bar"}`} data-testid={`table-screen-${tableName}`} ref={rootRef}>
      <TableHeader table={description} stats={stats.status === "ok" ? stats.data : null} profile={profile} />
      {/* Hidden, not unmounted, on the views that do not read with it: its editors keep their state. */}
      <div className="table-query-bar" hidden={!BAR_VIEWS.has(view)}>
        <QueryBar table={description} model={model} suggestions={suggestions} seenAttributes={seenAttributes} />
      </div>
      <ViewTabs views={views} active={view} onSelect={setView} label={`Views of ${description.name}`} />
      {copied !== null && (
        <p className="muted" role="status" data-testid="copy-notice">
          {copied}
        </p>
      )}
      {writes.editing !== null && (
        <ItemDialog
          editing={writes.editing}
          profileId={profile.id}
          table={tableName}
          keys={description.keys}
          readOnly={profile.readOnly}
          clipboard={clipboard}
          validate={writes.validate}
          saving={writes.saving}
          saveError={writes.saveError}
          onSave={(item) => void writes.save(item)}
          onRemove={() => void writes.remove()}
          onEdit={writes.setEditing}
          onDuplicate={writes.duplicate}
          onClose={() => writes.setEditing(null)}
        />
      )}
    </div>
  );
}
