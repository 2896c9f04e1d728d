import { describe, expect, it } from "vitest";
import { collectionPartition } from "./collectionValue";
import type { KeySchema } from "../ipc/bindings.gen";

const single: KeySchema = { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "recordedAt", type: "S" } };
const multi: KeySchema = { ...single, morePartitionKeys: [{ name: "region", type: "S" }, { name: "tier", type: "N" }] };

describe("collectionPartition", () => {
  it("keeps a one-attribute partition value as it is, a list value included", () => {
    expect(collectionPartition(single, { S: "VEH#V-7741" })).toEqual({ partitionValue: { S: "VEH#V-7741" } });
    expect(collectionPartition(single, { L: [{ S: "a" }] })).toEqual({ partitionValue: { L: [{ S: "a" }] } });
  });

  it("splits a multi-attribute key's list into the first value and the others, in key-schema order", () => {
    expect(collectionPartition(multi, { L: [{ S: "spring" }, { S: "eu" }, { N: "2" }] })).toEqual({
      partitionValue: { S: "spring" },
      morePartitionValues: [{ S: "eu" }, { N: "2" }],
    });
  });

  it("leaves a list of the wrong length alone, for the backend to refuse with DynamoDB's message", () => {
    expect(collectionPartition(multi, { L: [{ S: "spring" }] })).toEqual({ partitionValue: { L: [{ S: "spring" }] } });
  });
});
