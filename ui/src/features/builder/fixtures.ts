import type { TableDescription } from "../../ipc/bindings.gen";

/** The demo Telemetry table as DescribeTable shows it: keys and the sparse ByDepot GSI. */
export const telemetry: TableDescription = {
  name: "Telemetry",
  status: "ACTIVE",
  keys: { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "recordedAt", type: "S" } },
  attributeDefinitions: [],
  billingMode: "PAY_PER_REQUEST",
  provisioned: null,
  itemCount: 10,
  sizeBytes: 100,
  indexes: [
    {
      name: "ByDepot",
      kind: "global",
      keys: { partitionKey: { name: "depotCode", type: "S" }, sortKey: { name: "recordedAt", type: "S" } },
      projection: { type: "ALL", attributes: [] },
      itemCount: null,
      sizeBytes: null,
      status: "ACTIVE", backfilling: null,
    },
  ],
  streamViewType: null,
  ttlAttribute: null,
  createdAt: null,
  arn: null,
};
