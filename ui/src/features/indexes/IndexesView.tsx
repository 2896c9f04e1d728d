/**
 * The table screen's "Indexes side by side" view: pick one base-table collection (its
 * partition-key value) or the first N items of a scan, and see them laid out as the table and
 * each index hold them. A Query on one index collection, run from here, shows which collection it
 * read and which of the items came back.
 *
 * One query bar above every view: when the bar names a collection of the table (`bar`), the view
 * opens on it, and lays out each other collection a Query run from the bar reads once the view is
 * shown — once per value, not on every keystroke; the user can still pick another collection or
 * the scan here.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
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
  /**
   * The table's collection (its partition-key value, as text) the query bar names: `ran`, the one
   * its last run Query read; `typed`, the one its fields hold. The view is built when it is first
   * shown: it opens on `typed` (or else `ran`), then follows `ran`.
   */
  bar?: { ran: string | null; typed: string | null };
  /** Whether the view is on screen: a collection the bar ran while it was hidden is laid out when it is shown again. */
  shown?: boolean;
};

const NO_BAR = { ran: null, typed: null };

export function IndexesView({ profileId, table, bar = NO_BAR, shown = true }: IndexesViewProps) {
  const source = useCommands();
  // The collection the view opens on: the one the bar names as the view is first shown.
  const [opening] = useState(() => bar.typed ?? bar.ran);
  const [mode, setMode] = useState<"partition" | "scan">(opening === null ? "scan" : "partition");
  const [partitionText, setPartitionText] = useState(opening ?? "");
  // The field's text as typed (an emptied field stays empty while the user types); read at submit.
  const [limitText, setLimitText] = useState(String(DEFAULT_LIMIT));
  const [selected, setSelected] = useState<number | null>(null);
  const [lastRead, setLastRead] = useState<CollectionRead | null>(null);
  const [queryError, setQueryError] = useState<UiError | null>(null);
  const formId = useId();

  const partitionOf = (text: string, limit: number) => ({ kind: "partition" as const, value: scalarValue(table.keys.partitionKey.type, text), limit });
  // Each new layout starts with nothing selected and no Query read.
  const { layout, load } = useIndexesLayout(
    profileId,
    table.name,
    () => {
      setSelected(null);
      setLastRead(null);
      setQueryError(null);
    },
    opening === null ? undefined : partitionOf(opening, DEFAULT_LIMIT),
  );

  // The collection on show (null: a scan's items), and the bar's last run already followed: a
  // run of another collection is laid out once, when the view is shown; a run of the one on show
  // (or run again) changes nothing, so a scan or a collection picked here stays.
  const laidOut = useRef<string | null>(opening);
  const followed = useRef<string | null>(bar.ran);
  useEffect(() => {
    if (!shown || bar.ran === null || bar.ran === followed.current) return;
    followed.current = bar.ran;
    if (bar.ran === laidOut.current) return;
    laidOut.current = bar.ran;
    setMode("partition");
    setPartitionText(bar.ran);
    void load(partitionOf(bar.ran, itemsOf(limitText)));
  }, [shown, bar.ran]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const n = itemsOf(limitText);
    setLimitText(String(n));
    if (mode === "scan") {
      laidOut.current = null;
      void load({ kind: "scan", limit: n });
    } else if (partitionText.trim() !== "") {
      laidOut.current = partitionText.trim();
      void load(partitionOf(partitionText.trim(), n));
    }
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
          {errorTitle(queryError)}: {queryError.message}
        </p>
      )}
      {layout?.status === "loading" && (
        <p className="muted" role="status">
          Reading the items…
        </p>
      )}
      {layout?.status === "error" && (
        <p className="field-error" role="alert">
          {errorTitle(layout.error)}: {layout.error.message}
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

/** The Items field's number of items, as typed (1 to 200), or the default when it is not one. */
function itemsOf(text: string): number {
  const typed = Number(text);
  return text.trim() === "" || !Number.isFinite(typed) ? DEFAULT_LIMIT : Math.max(1, Math.min(200, Math.round(typed)));
}
