/**
 * A gallery of the explorer's components on the seed articles' Telemetry data, wired to local
 * state only (no backend), for looking at them in both themes and taking screenshots. Not part of
 * the app bundle: open /perf/gallery.html under `npm run ui:dev`.
 */
import { useState } from "react";
import { createRoot } from "react-dom/client";
import { Tabs, type TabInfo } from "../app/Tabs";
import { ShortcutSheet, useShortcutSheet } from "../app/ShortcutSheet";
import { CollectionBox } from "../features/explorer/CollectionBox";
import { CollectionMap } from "../features/explorer/CollectionMap";
import { ItemEditor } from "../features/items/ItemEditor";
import type { CollectionStat, KeySchema, QueryPage } from "../ipc/bindings.gen";
import type { Item } from "../shared/attributeValue";
import "../app/theme.css";
import "./gallery.css";

const keys: KeySchema = { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "recordedAt", type: "S" } };
const pk = { S: "VEH#V-7741" };
const meta: Item = {
  vehicleId: pk,
  recordedAt: { S: "META" },
  plate: { S: "KX26 ABC" },
  model: { S: "eVan 3" },
  depotCode: { S: "DEP-LON-3" },
  service: { M: { lastAt: { S: "2026-05-02" }, mileage: { N: "48211" } } },
  tags: { SS: ["electric", "north"] },
};
const reading = (s: string, speed: string, fuel: string): Item => ({
  vehicleId: pk,
  recordedAt: { S: `TS#2026-06-23T09:00:${s}Z` },
  speedKph: { N: speed },
  coolantC: { N: "88" },
  fuelPct: { N: fuel },
});
const pages: QueryPage[] = [
  {
    items: [meta, reading("01", "42", "61.5"), reading("06", "44", "61.4")],
    count: 3,
    scannedCount: 3,
    lastEvaluatedKey: { vehicleId: pk, recordedAt: { S: "TS#2026-06-23T09:00:06Z" } },
    consumedCapacity: { total: 0.5, table: 0.5, indexes: [] },
    stop: "limit",
  },
  {
    items: [reading("11", "47.25", "61.3"), { ...reading("16", "0", "61.3"), note: { S: "" }, raw: { B: "AAECAwQFBgc=" } }],
    count: 2,
    scannedCount: 3,
    lastEvaluatedKey: { vehicleId: pk, recordedAt: { S: "TS#2026-06-23T09:00:21Z" } },
    consumedCapacity: { total: 0.5, table: 0.5, indexes: [] },
    stop: "limit",
  },
];
const stats: CollectionStat[] = [
  { partitionValue: pk, itemCount: 4210, sizeBytes: 812_000, limitedSizeBytes: null },
  { partitionValue: { S: "VEH#V-7742" }, itemCount: 1900, sizeBytes: 366_000, limitedSizeBytes: null },
  { partitionValue: { S: "VEH#V-7743" }, itemCount: 1200, sizeBytes: 231_000, limitedSizeBytes: null },
  { partitionValue: { S: "VEH#V-7744" }, itemCount: 640, sizeBytes: 120_000, limitedSizeBytes: null },
  { partitionValue: { S: "VEH#V-7745" }, itemCount: 300, sizeBytes: 58_000, limitedSizeBytes: null },
  { partitionValue: { S: "VEH#V-7746" }, itemCount: 120, sizeBytes: 23_000, limitedSizeBytes: null },
  { partitionValue: { S: "VEH#V-7747" }, itemCount: 40, sizeBytes: 8_000, limitedSizeBytes: null },
];

function Gallery() {
  const view = new URLSearchParams(location.search).get("view") ?? "query";
  const [tabs, setTabs] = useState<TabInfo[]>([
    { id: "t", title: "Telemetry", detail: "Embedded · overview" },
    { id: "q", title: "Telemetry", detail: "Query · VEH#V-7741" },
    { id: "m", title: "Music", detail: "Embedded" },
  ]);
  const [active, setActive] = useState<string | null>(view === "map" ? "t" : "q");
  const [editing, setEditing] = useState<Item | null>(view === "editor" ? (pages[0]!.items[1] ?? null) : null);
  const sheet = useShortcutSheet();
  return (
    <div className="gallery">
      <Tabs tabs={tabs} activeId={active} onSelect={setActive} onClose={(id) => setTabs((t) => t.filter((x) => x.id !== id))}>
        {active === "t" && <CollectionMap stats={stats} keyName="vehicleId" onOpen={() => setActive("q")} />}
        {active === "q" && (
          <div className="gallery-query">
            {editing === null ? (
              <CollectionBox keys={keys} partitionValue={pk} pages={pages} loading={false} onLoadMore={() => {}} onEdit={setEditing} />
            ) : (
              <ItemEditor
                keys={keys}
                item={editing}
                existing
                validate={async (item) => ({ sizeBytes: JSON.stringify(item).length, problems: [] })}
                onSave={() => setEditing(null)}
                onCancel={() => setEditing(null)}
              />
            )}
          </div>
        )}
      </Tabs>
      <ShortcutSheet open={sheet.open || view === "sheet"} onClose={() => sheet.setOpen(false)} />
    </div>
  );
}

createRoot(document.getElementById("root")!).render(<Gallery />);
