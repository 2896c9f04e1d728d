/**
 * The demo story the start screen walks, step by step. Each step opens a real table of the
 * embedded engine's demo data on a real view, with the real request (a Query, a regrouping, a box
 * brought into view): nothing here is a picture. The tables and values are the product articles'
 * (../shared/seeds/), loaded as demo data by `dynotable-app/src/demo.rs`.
 */
import type { QueryInput } from "../../ipc/bindings.gen";
import type { TableIntent } from "../../shared/tableIntent";

export type StoryStep = {
  id: string;
  title: string;
  /** What the user will see, in a sentence or two. */
  what: string;
  table: string;
  intent: Omit<TableIntent, "n">;
};

/** VEH#V-7741's readings from 09:00 to 09:10, newest first: a key condition, not a filter. */
export const TEN_MINUTE_WINDOW: QueryInput = {
  table: "Telemetry",
  index: null,
  partitionValue: { S: "VEH#V-7741" },
  sortCondition: { op: "between", low: { S: "TS#2025-03-14T09:00:00Z" }, high: { S: "TS#2025-03-14T09:10:00Z" } },
  scanIndexForward: false,
  limit: null,
  consistentRead: false,
  projection: null,
  filter: null,
  filterNames: null,
  filterValues: null,
  exclusiveStartKey: null,
};

export const STORY: readonly StoryStep[] = [
  {
    id: "collection",
    title: "One vehicle's item collection",
    what: "Telemetry's items grouped by vehicleId, one dashed box each. VEH#V-7741's box opens: its META item sorts before its TS# readings, because sort keys compare byte by byte.",
    table: "Telemetry",
    intent: { view: "collections", groupBy: null, reveal: { S: "VEH#V-7741" } },
  },
  {
    id: "window",
    title: "A ten-minute window, newest first",
    what: "A Query reads one box: vehicleId = VEH#V-7741 AND recordedAt BETWEEN 09:00 and 09:10, ScanIndexForward = false. The Cost view shows the read units and how they add up: the bytes read, rounded up to 4 KB, half a unit each when eventually consistent.",
    table: "Telemetry",
    intent: { view: "cost", query: TEN_MINUTE_WINDOW },
  },
  {
    id: "by-depot",
    title: "The same readings, regrouped by a GSI",
    what: "Telemetry grouped by its global secondary index ByDepot: one box per depotCode, in the order of its sort key, recordedAt. So a box opens on the META items of the depot's vehicles, one per vehicle (META sorts before TS#), and its readings come after them, in time order, every vehicle's interleaved: open the box in Items to page through to them. Readings taken in the yard have no depotCode, so they are not in the index at all.",
    table: "Telemetry",
    intent: { view: "collections", groupBy: "ByDepot" },
  },
  {
    id: "lsi-gauge",
    title: "The 10 GB limit of a table with an LSI",
    what: "CustomerOrders has a local secondary index, so each customer's collection, with its index entries, may not pass 10 GB. The gauges show how full each one is. The demo's customers are small (the largest holds 800 orders), so each gauge reads a tiny fraction of a percent: a thin mark, with the size and the share beside it. As a customer's orders and their index entries grow, the bar fills toward 10 GB and turns to a warning from 80 %; at 10 GB, DynamoDB refuses the writes that would make that collection bigger (ItemCollectionSizeLimitExceededException).",
    table: "CustomerOrders",
    intent: { view: "indexes" },
  },
  {
    id: "hot-partition",
    title: "A hot partition",
    what: "VEH#V-7741 reports every minute while the other vehicles report every 45, so its collection holds 13 % of Telemetry's items. At 50,000 small reads a second spread as the items are, it needs about 3,364 read units a second, more than the 3,000 one partition serves: the Cost view flags it.",
    table: "Telemetry",
    intent: { view: "cost", hotReadsPerSecond: 50_000 },
  },
];
