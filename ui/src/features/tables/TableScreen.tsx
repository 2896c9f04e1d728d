import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  commands,
  type AttributeValue,
  type Profile,
  type QueryInput,
} from "../../ipc/bindings.gen";
import { errorTitle, unwrap, type UiError } from "../../ipc/result";
import { useCapacityLedger } from "../../app/capacity";
import { CollectionBox } from "../explorer/CollectionBox";
import { CollectionMap } from "../explorer/CollectionMap";
import { QueryControls } from "../explorer/QueryControls";
import type { Item, KeySchema } from "../explorer/model";
import { ItemEditor, type ItemValidation } from "../items/ItemEditor";
import { DeleteConfirm } from "../items/DeleteConfirm";
import { TableOverview } from "./TableOverview";
import { ScanPanel, type ChannelFactory } from "./ScanPanel";
import { StatisticsGate } from "./StatisticsGate";
import { BuilderResults, useBuilderRuns } from "./BuilderResults";
import { TableHeader } from "./TableHeader";
import { CollectionsView } from "../collections/CollectionsView";
import { useCollections } from "../collections/useCollections";
import type { TableIntent } from "../../shared/tableIntent";
import { useTable } from "./useTable";
import { VIEW_ORDER, ViewTabs, type ViewId, type ViewInfo } from "./ViewTabs";
import { shortcutOf } from "../../app/shortcuts";
import { TransferPanel } from "./TransferPanel";
import { DeleteTable } from "./DeleteTable";
import { TableSettings } from "./TableSettings";
import { QueryHistory } from "./QueryHistory";
import { QueryBuilderPanel } from "../builder/QueryBuilderPanel";
import { CostPanel, type CostSource } from "../costs/CostPanel";
import { IndexesView, type IndexesSource } from "../indexes/IndexesView";
import type { BuilderSource } from "../builder/source";
import { WriteEstimate } from "../costs/WriteEstimate";
import type { ConsumedCapacity } from "../../ipc/bindings.gen";
import { useCollectionQuery } from "./useCollectionQuery";
import { formatUnits } from "./format";
import "./tables.css";

export type TableSource = Pick<
  typeof commands,
  | "describeTable"
  | "collectionStats"
  | "collectionRange"
  | "collectionPosition"
  | "query"
  | "putItem"
  | "deleteItem"
  | "checkItem"
  | "scan"
  | "cancelOperation"
  | "statisticsScanCost"
  | "gatherStatistics"
  | "estimateWrite"
  | "reconcileWrite"
  | "exportItems"
  | "importItems"
  | "estimateImportFile"
  | "queryHistory"
  | "savedQueries"
  | "saveQuery"
  | "deleteSavedQuery"
  | "chooseFile"
  | "confirmDeleteTable"
  | "deleteTable"
  | "changeTable"
  | "tableTags"
> &
  CostSource &
  IndexesSource &
  BuilderSource;

/** Items drawn in each box of the Collections view (the Query's Limit); the rest are counted. */
const ROWS_PER_BOX = 20;

/** What the item editor is doing. */
type Editing =
  | { kind: "edit"; original: Item }
  | { kind: "create"; template: Item | null }
  | { kind: "delete"; original: Item }
  | null;

function keyNamesOf(keys: KeySchema): string[] {
  return keys.sortKey === null ? [keys.partitionKey.name] : [keys.partitionKey.name, keys.sortKey.name];
}

/** The query a collection opens with: every item of it, in sort-key order, a page of 100. */
function collectionQuery(table: string, partitionValue: AttributeValue, index: string | null = null): QueryInput {
  return {
    table,
    index,
    partitionValue,
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
 * One table: a header (name, keys, figures) over a strip of views, each a tab that keeps its state
 * while another is shown: Collections (the map), Items (one collection as a dashed box: query,
 * page, edit; and a streamed scan), Indexes side by side, Cost, Code & history, Import/export and
 * Settings (what DescribeTable says; changing and deleting the table). Alt+1 … Alt+7 switch views.
 */
export function TableScreen({
  profile,
  tableName,
  source = commands,
  makeChannel,
  intent = null,
  onDeleted = () => {},
}: {
  profile: Profile;
  tableName: string;
  source?: TableSource;
  makeChannel?: ChannelFactory | undefined;
  /** What to show, asked for from outside (the start screen); a new `n` asks again. */
  intent?: TableIntent | null;
  /** The table was deleted (from its Settings). */
  onDeleted?: () => void;
}) {
  const { table, stats, setStats, setDescription } = useTable(profile.id, tableName, source);
  const [view, setView] = useState<ViewId>("collections");
  const [showMap, setShowMap] = useState(false);
  const [reveal, setReveal] = useState<{ value: AttributeValue; n: number } | null>(null);
  const [groupBy, setGroupBy] = useState<string | null>(null);
  const collections = useCollections({
    profileId: profile.id,
    table: tableName,
    index: groupBy,
    source,
    rowsPerBox: ROWS_PER_BOX,
  });
  const rootRef = useRef<HTMLDivElement>(null);
  const [queryRun, setQueryRun] = useState(0);
  const [editing, setEditing] = useState<Editing>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<{ name: string; message: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // The item as the editor last had it (every edit is validated), for the write estimate.
  const [draft, setDraft] = useState<Item | null>(null);
  // The last write saved, with what it reported: shown estimate beside actual.
  const [lastWrite, setLastWrite] = useState<{ existing: Item | null; newItem: Item; actual: ConsumedCapacity | null } | null>(null);
  const query = useCollectionQuery(profile.id, source.query);
  const builder = useBuilderRuns();
  const ledger = useCapacityLedger();

  // Alt+1 … Alt+7: only the table screen on show answers (the others stay mounted, hidden).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (shortcutOf(event) !== "go-to-view") return;
      const root = rootRef.current;
      if (root === null || root.closest("[hidden]") !== null) return;
      const digit = event.code?.startsWith("Digit") ? Number(event.code.slice(5)) : Number(event.key);
      const target = VIEW_ORDER[digit - 1];
      if (target === undefined) return;
      event.preventDefault();
      setView(target.id);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const run = useCallback(
    (input: QueryInput) => {
      setQueryRun((n) => n + 1);
      setNotice(null);
      void query.run(input);
    },
    [query],
  );

  // Asked from outside: the view, its grouping, a box, a Query, as the user would have chosen them.
  useEffect(() => {
    if (intent === null) return;
    setView(intent.view);
    if (intent.groupBy !== undefined) setGroupBy(intent.groupBy);
    if (intent.showMap !== undefined) setShowMap(intent.showMap);
    if (intent.reveal !== undefined) setReveal((r) => ({ value: intent.reveal!, n: (r?.n ?? 0) + 1 }));
    if (intent.query !== undefined) run(intent.query);
    // One intent is carried out once: `n` names it.
  }, [intent?.n]);

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

  const suggestions = useMemo(
    () => (stats.status === "ok" ? stats.data.collections.slice(0, 50).map((c) => c.partitionValue) : []),
    [stats],
  );

  if (table.status === "loading") return <p className="muted">Loading {tableName}…</p>;
  if (table.status === "error") {
    return (
      <p className="status-error" role="alert">
        {errorTitle(table.error.code)}: {table.error.message}
      </p>
    );
  }
  const description = table.data;
  const queriedIndex = query.input?.index ?? null;
  const queriedKeys =
    queriedIndex === null ? description.keys : (description.indexes.find((i) => i.name === queriedIndex)?.keys ?? description.keys);
  const keyNames = keyNamesOf(description.keys);


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
    ledger.record("write", units);
    setLastWrite({ existing: editing.kind === "edit" ? editing.original : null, newItem: item, actual: result.data.consumedCapacity });
    if (editing.kind === "edit") query.replaceItem(keyNames, editing.original, item);
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
    ledger.record("write", result.data.consumedCapacity?.total ?? 0);
    query.replaceItem(keyNames, editing.original, null);
    setNotice(`Deleted: ${formatUnits(result.data.consumedCapacity?.total ?? 0)} WCU consumed.`);
    setEditing(null);
  };

  const openCollection = (value: AttributeValue) => {
    run(collectionQuery(tableName, value));
    setView("items");
  };
  // A box of the run regrouped by an index opens as a Query of that index.
  const openBox = (value: AttributeValue) => {
    run(collectionQuery(tableName, value, groupBy));
    setView("items");
  };
  const seenAttributes = [...new Set(query.pages.flatMap((p) => p.items.flatMap((i) => Object.keys(i))))];
  const lastItem = query.pages.at(-1)?.items.at(-1) ?? null;

  const statsPanel = (
    <>
      {stats.status === "loading" && <p className="muted">Reading the collection statistics…</p>}
      {stats.status === "error" && stats.error.code === "NOT_FOUND" && profile.connection.kind !== "embedded" && (
        <StatisticsGate
          profileId={profile.id}
          table={tableName}
          source={source}
          onGathered={(gathered) => setStats({ status: "ok", data: gathered })}
        />
      )}
      {stats.status === "error" && !(stats.error.code === "NOT_FOUND" && profile.connection.kind !== "embedded") && (
        <p className="muted">{stats.error.message}</p>
      )}
      {stats.status === "ok" && (
        <>
          <div className="collections-toolbar">
            <button type="button" aria-pressed={showMap} onClick={() => setShowMap(!showMap)} data-testid="toggle-map">
              {showMap ? "Hide the map" : "Show the map"}
            </button>
            <span className="muted">Every box is a collection: one partition-key value, its items in sort-key order. A Query reads one box; a Scan walks them all.</span>
          </div>
          {showMap && (
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
          )}
          <CollectionsView
            table={description}
            data={collections}
            onOpen={openBox}
            onGroupBy={setGroupBy}
            reveal={reveal}
            rowsPerBox={ROWS_PER_BOX}
          />
        </>
      )}
    </>
  );

  const views: ViewInfo[] = VIEW_ORDER.map(({ id, label }) => ({ id, label, render: () => renderView(id) }));

  function renderView(id: ViewId) {
    switch (id) {
      case "collections":
        return (
          <section className="table-section" aria-label="Collections">
            {statsPanel}
          </section>
        );
      case "items":
        return (
          <>
            <section className="table-section" aria-label="Collection">
              <QueryControls
                key={query.input === null ? "new" : `${query.input.table}-${JSON.stringify(query.input.partitionValue)}-${queryRun}`}
                table={tableName}
                keys={description.keys}
                indexes={description.indexes}
                suggestions={suggestions}
                onRun={run}
                busy={query.loading}
                initial={query.input}
                error={
                  query.error !== null && query.pages.length === 0
                    ? { name: query.error.exception ?? errorTitle(query.error.code), message: query.error.message, field: null }
                    : null
                }
              />
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
                  source={source}
                />
              )}
              {query.input !== null && query.pages.length > 0 && (
                <CollectionBox
                  key={queryRun}
                  keys={queriedKeys}
                  tableKeys={queriedIndex === null ? null : description.keys}
                  partitionValue={query.input.partitionValue}
                  pages={query.pages}
                  loading={query.loading}
                  onLoadMore={query.loadMore}
                  onEdit={(item) => {
                    setSaveError(null);
                    setDraft(null);
                    setEditing({ kind: "edit", original: item });
                  }}
                  loadError={
                    query.error !== null && query.pages.length > 0
                      ? { name: query.error.exception ?? errorTitle(query.error.code), message: query.error.message }
                      : null
                  }
                />
              )}
            </section>
            <section className="table-section" aria-label="Scan" data-testid="section-scan">
              <h3>Scan</h3>
              <ScanPanel profileId={profile.id} table={description} source={source} onOpenCollection={openCollection} makeChannel={makeChannel} />
            </section>
          </>
        );
      case "indexes":
        return (
          <section className="table-section" data-testid="section-indexes" aria-label="Indexes side by side">
            {description.indexes.length > 0 ? (
              <IndexesView profileId={profile.id} table={description} source={source} />
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
            <CostPanel profileId={profile.id} table={description} query={query.input} lastPage={query.pages.at(-1) ?? null} source={source} />
          </section>
        );
      case "code":
        return (
          <>
            <section className="table-section" data-testid="section-builder" aria-label="Query builder">
              <h3>Query builder</h3>
              <QueryBuilderPanel
                key={`${profile.id}/${description.name}`}
                profileId={profile.id}
                table={description}
                onResult={builder.onResult}
                seenAttributes={seenAttributes}
                source={source}
              />
              {builder.run !== null && (
                <BuilderResults
                  table={description}
                  run={builder.run}
                  onEdit={(item) => {
                    setSaveError(null);
                    setEditing({ kind: "edit", original: item });
                  }}
                />
              )}
            </section>
            <section className="table-section" data-testid="section-history" aria-label="History and saved queries">
              <h3>History and saved queries</h3>
              <QueryHistory
                profileId={profile.id}
                table={tableName}
                current={query.input}
                refresh={`${queryRun}-${query.loading ? "running" : "done"}`}
                source={source}
                onRun={(input) => {
                  run(input);
                  setView("items");
                }}
              />
            </section>
          </>
        );
      case "transfer":
        return (
          <section className="table-section" data-testid="section-transfer" aria-label="Import and export">
            <TransferPanel profileId={profile.id} table={tableName} query={query.input} readOnly={profile.readOnly} source={source} />
          </section>
        );
      case "settings":
        return (
          <section className="table-section" aria-label="Settings">
            <TableOverview table={description} />
            <h3 className="settings-heading">Change</h3>
            <TableSettings profile={profile} table={description} source={source} onChanged={setDescription} />
            <h3 className="settings-heading">Delete</h3>
            <DeleteTable profile={profile} table={tableName} source={source} onDeleted={onDeleted} />
          </section>
        );
    }
  }

  return (
    <div className="table-screen" data-testid={`table-screen-${tableName}`} ref={rootRef}>
      <TableHeader table={description} stats={stats.status === "ok" ? stats.data : null} profile={profile} />
      <ViewTabs views={views} active={view} onSelect={setView} label={`Views of ${description.name}`} />
      {editing !== null && (
        <div className="dialog-backdrop">
          <div role="dialog" aria-modal="true" aria-label="Item editor" className="dialog dialog-wide">
            {editing.kind === "delete" ? (
              <>
              <WriteEstimate
                profileId={profile.id}
                table={tableName}
                write={{ kind: "delete", existing: editing.original, newItem: null }}
                source={source}
              />
              <DeleteConfirm
                keys={description.keys}
                item={editing.original}
                onConfirm={() => void remove()}
                onCancel={() => setEditing(null)}
                busy={saving}
                readOnly={profile.readOnly}
              />
              </>
            ) : (
              <>
                <ItemEditor
                  keys={description.keys}
                  item={editing.kind === "edit" ? editing.original : editing.template}
                  existing={editing.kind === "edit"}
                  validate={validate}
                  onSave={(item) => void save(item)}
                  onCancel={() => setEditing(null)}
                  readOnly={profile.readOnly}
                  saving={saving}
                  saveError={saveError}
                />
                <WriteEstimate
                  profileId={profile.id}
                  table={tableName}
                  write={{
                    kind: "put",
                    existing: editing.kind === "edit" ? editing.original : null,
                    newItem: draft ?? (editing.kind === "edit" ? editing.original : editing.template),
                  }}
                  source={source}
                />
                {editing.kind === "edit" && !profile.readOnly && (
                  <button type="button" className="danger" onClick={() => setEditing({ kind: "delete", original: editing.original })}>
                    Delete this item…
                  </button>
                )}
              </>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
