/**
 * The table screen's "Indexes side by side" view: pick one base-table collection (its
 * partition-key value) or the first N items of a scan, and see them laid out as the table and
 * each index hold them. A Query on one index collection, run from here, shows which collection it
 * read and which of the items came back.
 */
import { useId, useState, type FormEvent } from "react";
import type { TableDescription } from "../../ipc/bindings.gen";
import { errorTitle, unwrap, type UiError } from "../../ipc/result";
import { scalarValue } from "../../shared/attributeValue";
import { IndexesSideBySide, type CollectionRead } from "./IndexesSideBySide";
import { formatCountOf } from "../../shared/format";
import { DEFAULT_LIMIT, useIndexesLayout } from "./useIndexesLayout";
import { useCommands } from "../../ipc/CommandsContext";
import "./IndexesView.css";
import { indexKeys, keyNames } from "../../shared/keySchema";
import { collectionPartition } from "../../shared/collectionValue";
import { matchesShortcut } from "../../app/shortcuts";

export type IndexesViewProps = {
  profileId: string;
  table: TableDescription;
};

export function IndexesView({ profileId, table }: IndexesViewProps) {
  const source = useCommands();
  const [mode, setMode] = useState<"partition" | "scan">("scan");
  const [partitionText, setPartitionText] = useState("");
  // The field's text as typed (an emptied field stays empty while the user types); read at submit.
  const [limitText, setLimitText] = useState(String(DEFAULT_LIMIT));
  const [selected, setSelected] = useState<number | null>(null);
  const [lastRead, setLastRead] = useState<CollectionRead | null>(null);
  const [queryError, setQueryError] = useState<UiError | null>(null);
  const formId = useId();

  // Each new layout starts with nothing selected and no Query read.
  const { layout, load } = useIndexesLayout(profileId, table.name, () => {
    setSelected(null);
    setLastRead(null);
    setQueryError(null);
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = Number(limitText);
    const n = limitText.trim() === "" || !Number.isFinite(typed) ? DEFAULT_LIMIT : Math.max(1, Math.min(200, Math.round(typed)));
    setLimitText(String(n));
    if (mode === "scan") void load({ kind: "scan", limit: n });
    else if (partitionText.trim() !== "") void load({ kind: "partition", value: scalarValue(table.keys.partitionKey.type, partitionText.trim()), limit: n });
  };

  const queryCollection = async (column: number, collection: number) => {
    if (layout?.status !== "ok") return;
    const view = layout.data;
    const target = view.columns[column];
    const box = target?.collections[collection];
    if (target === undefined || box === undefined) return;
    setQueryError(null);
    const result = await unwrap(
      source.query(profileId, {
        table: table.name,
        index: target.index,
        // A multi-attribute GSI key's box is named by the list of its values (rule B.18.3).
        ...collectionPartition(indexKeys(table, target.index) ?? table.keys, box.partitionValue),
        sortCondition: null,
        scanIndexForward: true,
        limit: null,
        consistentRead: false,
        projection: null,
        filter: null,
        filterNames: null,
        filterValues: null,
        exclusiveStartKey: null,
      }),
    );
    if (result.status === "error") {
      setQueryError(result.error);
      return;
    }
    if (result.status !== "ok") return;
    // The returned items are matched to the view's by the base table's key.
    const names = keyNames(table.keys);
    const keyOf = (item: Record<string, unknown>) => JSON.stringify(names.map((n) => item[n]));
    const returned = new Set(result.data.items.map(keyOf));
    setLastRead({
      column,
      collection,
      itemIds: view.items.filter((item) => returned.has(keyOf(item.item))).map((item) => item.id),
      units: result.data.consumedCapacity?.total ?? null,
    });
  };

  const hasIndexes = table.indexes.length > 0;
  return (
    <section className="indexes-view" aria-label="Indexes side by side">
      <form className="indexes-controls" onSubmit={submit} aria-labelledby={`${formId}-title`}>
        <h2 id={`${formId}-title`}>Indexes side by side</h2>
        <label>
          <input type="radio" name={`${formId}-mode`} checked={mode === "scan"} onChange={() => setMode("scan")} /> First items of a scan
        </label>
        <label>
          <input type="radio" name={`${formId}-mode`} checked={mode === "partition"} onChange={() => setMode("partition")} /> One collection:{" "}
          {table.keys.partitionKey.name} ={" "}
          <input
            type="text"
            aria-label={`${table.keys.partitionKey.name} value`}
            value={partitionText}
            onFocus={() => setMode("partition")}
            onChange={(e) => {
              setPartitionText(e.target.value);
              setMode("partition");
            }}
          />
        </label>
        <label>
          Items{" "}
          <input type="number" min={1} max={200} value={limitText} onChange={(e) => setLimitText(e.target.value)} />
        </label>
        <button type="submit" className="primary">
          Lay out
        </button>
      </form>
      {!hasIndexes && <p className="muted">This table has no secondary index: only the table's own column is shown.</p>}
      {queryError !== null && (
        <p className="field-error" role="alert">
          {errorTitle(queryError.code)}: {queryError.message}
        </p>
      )}
      {layout?.status === "loading" && (
        <p className="muted" role="status">
          Reading the items…
        </p>
      )}
      {layout?.status === "error" && (
        <p className="field-error" role="alert">
          {errorTitle(layout.error.code)}: {layout.error.message}
        </p>
      )}
      {layout?.status === "ok" && (
        <>
          <p className="muted">
            {formatCountOf(layout.data.items.length, "item")}{layout.data.truncated ? " (more exist)" : ""}
            {layout.data.readUnits !== null && ` · reading them consumed ${layout.data.readUnits} RCU`}
            {selected !== null && " · Escape clears the selection"}
          </p>
          <div
            onKeyDown={(e) => {
              if (matchesShortcut("clear-selection", e.nativeEvent)) setSelected(null);
            }}
          >
            <IndexesSideBySide
              layout={layout.data}
              selected={selected}
              onSelect={setSelected}
              onQueryCollection={(c, k) => void queryCollection(c, k)}
              lastRead={lastRead}
            />
          </div>
        </>
      )}
    </section>
  );
}
