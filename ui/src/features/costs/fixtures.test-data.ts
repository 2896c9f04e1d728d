/** Answers of the cost commands as the Rust estimator gives them for the seed example. */
import type { QueryEstimate, QueryInput, RequestCostFigure, TableDescription } from "../../ipc/bindings.gen";

export const seedQuery: QueryInput = {
  table: "SensorReadings",
  index: null,
  partitionValue: { S: "DEV#seed" },
  sortCondition: null,
  scanIndexForward: true,
  limit: null,
  consistentRead: false,
  projection: null,
  filter: null,
  filterNames: null,
  filterValues: null,
  exclusiveStartKey: null,
};

function page(total: number): RequestCostFigure {
  return {
    total,
    table: total,
    indexes: [],
    exact: true,
    lines: [{ rule: "B.2", text: `10 items, 20480 B (20.00 KB) summed, round up once to 5 blocks of 4 KB → ${total} RCU` }],
  };
}

export const seedEstimate: QueryEstimate = {
  table: "SensorReadings",
  index: null,
  source: { kind: "liveStatistics" },
  itemCount: 10,
  totalBytes: 20480,
  requested: "eventual",
  firstPage: page(2.5),
  query: [
    { consistency: "eventual", capacityUnits: 2.5, pages: [page(2.5)], exact: true },
    { consistency: "strong", capacityUnits: 5, pages: [page(5)], exact: true },
  ],
  alternatives: [
    { way: "query", requests: 1, eventual: 2.5, strong: 5, transactional: null, exact: true, blocksRange: null, lines: [{ rule: "B.2", text: "One Query sums the items it reads and rounds up to 4 KB once per page" }] },
    { way: "getItems", requests: 10, eventual: 5, strong: 10, transactional: null, exact: true, blocksRange: null, lines: [{ rule: "B.2", text: "Each GetItem rounds its item up to 4 KB on its own" }] },
    { way: "batchGetItem", requests: 1, eventual: 5, strong: 10, transactional: null, exact: true, blocksRange: null, lines: [] },
    { way: "transactGetItems", requests: 1, eventual: null, strong: null, transactional: 20, exact: true, blocksRange: null, lines: [] },
    { way: "scanWithFilter", requests: 2, eventual: 181, strong: 362, transactional: null, exact: false, blocksRange: null, lines: [{ rule: "B.2", text: "A Scan reads every item whatever the filter keeps" }] },
  ],
  lines: [{ rule: "B.1", text: "From collection statistics: 10 items, 20,480 bytes" }],
};

/** The seed example's table as DescribeTable shows it. */
export const sensorReadings: TableDescription = {
  name: "SensorReadings",
  status: "ACTIVE",
  keys: { partitionKey: { name: "deviceId", type: "S" }, sortKey: { name: "readingTs", type: "N" } },
  attributeDefinitions: [],
  billingMode: "PAY_PER_REQUEST",
  provisioned: null,
  itemCount: 1140,
  sizeBytes: 2_340_000,
  indexes: [],
  streamViewType: null,
  ttlAttribute: null,
  createdAt: null,
  arn: null,
};
