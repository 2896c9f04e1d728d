import { useEffect, useState } from "react";
import type { AttributeValue, Profile, TableDescription } from "../../ipc/bindings.gen";
import { errorTitle } from "../../ipc/result";
import { useRecordCapacity } from "../../app/capacity";
import type { Item } from "../../shared/attributeValue";
import { attributeText, storedValue } from "../../shared/attributeValue";
import { formatCount, formatUnits } from "../../shared/format";
import { indexKeys } from "../../shared/keySchema";
import { useModalDialog } from "../../shared/useModalDialog";
import { CollectionBox } from "../explorer/CollectionBox";
import { ItemCopy, type TextClipboard } from "../items/ItemCopy";
import { PasteItems } from "../items/PasteItems";
import { BulkPanel, type BulkChannelFactory } from "../bulk/BulkPanel";
import { WriteEstimate } from "../costs/WriteEstimate";
import { ScanResults } from "../query/ScanResults";
import { SCAN_ITEMS_KEPT, type QueryModel } from "../query/useQueryModel";
import type { ItemWrites } from "./useItemWrites";
import "./ItemsView.css";

/**
 * The Items view: what the query bar read, as one flat grid to page through, sort, choose columns
 * of and edit. A Query's run is its one collection, page by page (`CollectionBox`, with the page
 * cuts drawn); a Scan's run is every item it returned, and below it the collections it met
 * (`ScanResults`). Above the grid: new, duplicate, paste and bulk edit, and the selected row's
 * copy and duplicate; under them, the last write and what it cost beside its estimate.
 *
 * The view fills its panel: a Query's grid takes the height the actions leave and scrolls itself;
 * a Scan's grid and the collections under it are as tall as they are, and the panel scrolls.
 *
 * Before anything is read, the view says how to read, and offers the table's largest collection.
 * A run of an index or with a projection holds parts of items: its rows are not staged for a bulk
 * edit (whose undo puts back the items as staged).
 */
export function ItemsView({
  profile,
  table,
  model,
  writes,
  partialRun,
  largest,
  clipboard,
  makeBulkChannel,
  onOpenCollection,
  onCopyItem,
  onTableChanged,
}: {
  profile: Profile;
  table: TableDescription;
  model: QueryModel;
  writes: ItemWrites;
  /** The run holds parts of items (an index, or a projection). */
  partialRun: boolean;
  /** The table's largest collection, offered before anything is read. */
  largest: AttributeValue | null;
  /** Where copies go (none: the window has no clipboard access). */
  clipboard: TextClipboard | undefined;
  makeBulkChannel?: BulkChannelFactory | undefined;
  onOpenCollection: (value: AttributeValue) => void;
  onCopyItem: (item: Item) => void;
  /** Items were written in bulk or pasted: the boxes are read again. */
  onTableChanged: () => void;
}) {
  const recordCapacity = useRecordCapacity();
  const run = model.run;
  // The item selected in the grid (copy and duplicate act on it), whether the paste dialog and
  // the bulk panel are open, and the items checked for a bulk edit, by index in the run.
  const [selectedItem, setSelectedItem] = useState<Item | null>(null);
  const [pasting, setPasting] = useState(false);
  // The paste dialog: the focus in it (on the box to paste into) while open, back on "Paste items…" after.
  const pasteDialog = useModalDialog<HTMLDivElement>(pasting, { onEscape: () => setPasting(false) });
  const [bulk, setBulk] = useState(false);
  const [checked, setChecked] = useState<ReadonlySet<number>>(new Set());
  // A new run clears the checks: they name items by their place in the run.
  const runRequest = run?.request ?? null;
  useEffect(() => setChecked(new Set()), [runRequest]);

  const readOnly = profile.readOnly;
  const queryPages = run?.kind === "query" ? run.pages : [];
  const lastItem = queryPages.at(-1)?.items.at(-1) ?? null;
  const readItems = run === null || partialRun ? [] : run.pages.flatMap((p) => p.items);
  const bulkItems = checked.size === 0 ? readItems : readItems.filter((_, i) => checked.has(i));
  const runIndex = run === null ? null : (run.request.indexName ?? null);
  const runKeys = indexKeys(table, runIndex) ?? table.keys;
  const runError = run?.kind === "query" ? run.error : null;
  const toggleChecked = (i: number) =>
    setChecked((c) => {
      const next = new Set(c);
      if (next.has(i)) next.delete(i);
      else next.add(i);
      return next;
    });
  // Rows are checked only in a run of the table itself: an index holds parts of items.
  const checks = bulk && runIndex === null ? { checked, onCheck: toggleChecked } : { checked: undefined, onCheck: undefined };

  return (
    <section className="table-section items-view" aria-label="Items">
      <div className="item-actions">
        <button type="button" disabled={readOnly} onClick={() => writes.create(null)}>
          New item
        </button>
        <button type="button" disabled={readOnly || lastItem === null} onClick={() => lastItem !== null && writes.create(lastItem)}>
          Duplicate last item
        </button>
        <button type="button" disabled={readOnly} onClick={() => setPasting(true)}>
          Paste items…
        </button>
        <button type="button" aria-pressed={bulk} disabled={readItems.length === 0} onClick={() => setBulk(!bulk)}>
          Bulk edit…
        </button>
        <span className="item-selected-actions" aria-label="Selected item">
          <button type="button" disabled={readOnly || selectedItem === null} onClick={() => selectedItem !== null && writes.duplicate(selectedItem)}>
            Duplicate selected
          </button>
          <ItemCopy table={table.name} item={selectedItem} clipboard={clipboard} />
        </span>
        {readOnly && <span className="muted">This connection is read-only.</span>}
      </div>
      {writes.notice !== null && (
        <p className="test-ok" role="status" data-testid="write-notice">
          {writes.notice}
        </p>
      )}
      {writes.notice !== null && writes.lastWrite !== null && (
        <WriteEstimate
          profileId={profile.id}
          table={table.name}
          write={{ kind: "put", existing: writes.lastWrite.existing, newItem: writes.lastWrite.newItem }}
          actual={writes.lastWrite.actual}
        />
      )}
      {bulk && (
        <BulkPanel
          profileId={profile.id}
          table={table.name}
          keys={table.keys}
          items={bulkItems}
          scope={checked.size === 0 ? "read" : "checked"}
          makeChannel={makeBulkChannel}
          readOnly={readOnly}
          onWritten={() => {
            // The boxes and the run are read again: the grid shows what the edit left.
            onTableChanged();
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
              <button type="button" className="link-button" data-testid="items-open-largest" onClick={() => onOpenCollection(largest)}>
                Read the largest collection, {table.keys.partitionKey.name} = {attributeText(largest)}
              </button>
            </>
          )}
        </p>
      )}
      {run?.kind === "query" && run.request.keyCondition && run.pages.length > 0 && (
        <CollectionBox
          keys={runKeys}
          tableKeys={runIndex === null ? null : table.keys}
          // The key as DynamoDB stores it, not as typed in the bar (PersonID = 100, not 1E2).
          partitionValue={storedValue(run.request.keyCondition.partitionValue as AttributeValue)}
          pages={run.pages}
          loading={run.loading}
          onLoadMore={model.loadMore}
          onSelect={setSelectedItem}
          onCopy={onCopyItem}
          {...checks}
          onEdit={(item) => void writes.openItem(item)}
          loadError={
            runError !== null && run.pages.length > 0 ? { name: runError.exception ?? errorTitle(runError), message: runError.message } : null
          }
        />
      )}
      {run?.kind === "scan" && (
        <section className="table-section items-scan" aria-label="Scan" data-testid="section-scan">
          {run.pages.length > 0 && (
            <CollectionBox
              keys={runKeys}
              tableKeys={runIndex === null ? null : table.keys}
              partitionValue={null}
              title={`Items the Scan of ${runIndex ?? table.name} returned${run.notKept > 0 ? `: the first ${formatCount(SCAN_ITEMS_KEPT)}` : ""}`}
              pages={run.pages}
              loading={run.running}
              onLoadMore={null}
              onSelect={setSelectedItem}
              onCopy={onCopyItem}
              {...checks}
              onEdit={(item) => void writes.openItem(item)}
            />
          )}
          <ScanResults run={run} onOpenCollection={onOpenCollection} />
        </section>
      )}
      {pasting && (
        <div className="dialog-backdrop">
          <div
            ref={pasteDialog.ref}
            tabIndex={-1}
            role="dialog"
            aria-modal="true"
            aria-label="Paste items"
            className="dialog dialog-wide"
            onKeyDown={pasteDialog.onKeyDown}
          >
            <PasteItems
              profileId={profile.id}
              table={table.name}
              keys={table.keys}
              readOnly={readOnly}
              onWritten={(items, units) => {
                recordCapacity("write", units);
                writes.setNotice(`Pasted ${items.length} ${items.length === 1 ? "item" : "items"}: ${formatUnits(units)} WCU consumed.`);
                onTableChanged();
              }}
              onClose={() => setPasting(false)}
            />
          </div>
        </div>
      )}
    </section>
  );
}
