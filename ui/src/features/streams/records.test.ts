import { describe, expect, it } from "vitest";
import type { StreamRecord } from "../../ipc/bindings.gen";
import { canonical, imageDiff, keyText, matchesKey, pushRing } from "./records";

const record = (keys: StreamRecord["keys"]): StreamRecord => ({
  eventId: "1",
  eventName: "INSERT",
  shardId: "s",
  sequenceNumber: "1",
  createdAt: null,
  keys,
  newImage: null,
  oldImage: null,
  sizeBytes: null,
  userIdentity: null,
  ttlDeletion: false,
});

describe("the ring of records", () => {
  it("keeps the newest `capacity`, oldest dropped first", () => {
    expect(pushRing([1, 2], [3], 5)).toEqual([1, 2, 3]);
    expect(pushRing([1, 2, 3], [4, 5, 6], 4)).toEqual([3, 4, 5, 6]);
    expect(pushRing([], [1, 2, 3, 4, 5, 6, 7], 3)).toEqual([5, 6, 7]);
    const ring = [1];
    expect(pushRing(ring, [], 3)).toBe(ring);
  });
});

describe("the diff of two images", () => {
  it("marks each attribute added, removed, changed or the same, keys first", () => {
    const rows = imageDiff(
      { vehicleId: { S: "V" }, at: { N: "1" }, speed: { N: "12.5" }, plate: { S: "AB" } },
      { vehicleId: { S: "V" }, at: { N: "1" }, speed: { N: "99.000000000000000000000000000000000001" }, fuel: { N: "3" } },
      ["vehicleId", "at"],
    );
    expect(rows.map((r) => [r.name, r.change])).toEqual([
      ["vehicleId", "same"],
      ["at", "same"],
      ["fuel", "added"],
      ["plate", "removed"],
      ["speed", "changed"],
    ]);
    expect(rows[4]!.after).toEqual({ N: "99.000000000000000000000000000000000001" });
  });

  it("compares maps by member, not by the order they arrived in", () => {
    expect(canonical({ M: { a: { S: "1" }, b: { N: "2" } } })).toBe(canonical({ M: { b: { N: "2" }, a: { S: "1" } } }));
    expect(canonical({ L: [{ S: "1" }, { S: "2" }] })).not.toBe(canonical({ L: [{ S: "2" }, { S: "1" }] }));
    const rows = imageDiff({ m: { M: { a: { S: "1" }, b: { N: "2" } } } }, { m: { M: { b: { N: "2" }, a: { S: "1" } } } }, []);
    expect(rows[0]!.change).toBe("same");
  });

  it("treats an insert as every attribute added and a remove as every attribute removed", () => {
    expect(imageDiff(null, { k: { S: "1" } }, ["k"]).map((r) => r.change)).toEqual(["added"]);
    expect(imageDiff({ k: { S: "1" } }, null, ["k"]).map((r) => r.change)).toEqual(["removed"]);
  });
});

describe("keys", () => {
  it("are written in the table's key order and matched exactly by type and value", () => {
    expect(keyText({ at: { N: "3" }, vehicleId: { S: "VEH#1" } }, ["vehicleId", "at"])).toBe("vehicleId = VEH#1 · at = 3");
    const r = record({ vehicleId: { S: "VEH#1" }, at: { N: "3" } });
    expect(matchesKey(r, {})).toBe(true);
    expect(matchesKey(r, { vehicleId: { S: "VEH#1" } })).toBe(true);
    expect(matchesKey(r, { vehicleId: { S: "VEH#2" } })).toBe(false);
    expect(matchesKey(r, { at: { S: "3" } })).toBe(false);
  });
});
