import { describe, expect, it } from "vitest";
import { wholeCollectionReadCost } from "./readCost";

describe("wholeCollectionReadCost", () => {
  it("rounds the collection up to 4 KB blocks: 1 RCU each strongly consistent, half eventually", () => {
    // The seed's window: 10 items × 2 KB = 20 KB → 5 blocks → 2.5 eventual, 5 strong.
    expect(wholeCollectionReadCost(20 * 1024)).toEqual({ eventual: 2.5, strong: 5 });
    // 130 KB → 32.5 blocks → 33: the sketch's VEH#V-7741.
    expect(wholeCollectionReadCost(130 * 1024)).toEqual({ eventual: 16.5, strong: 33 });
    expect(wholeCollectionReadCost(4096)).toEqual({ eventual: 0.5, strong: 1 });
    expect(wholeCollectionReadCost(4097)).toEqual({ eventual: 1, strong: 2 });
  });

  it("costs at least one read, and rounds each 1 MB page on its own", () => {
    expect(wholeCollectionReadCost(0)).toEqual({ eventual: 0.5, strong: 1 });
    expect(wholeCollectionReadCost(100)).toEqual({ eventual: 0.5, strong: 1 });
    expect(wholeCollectionReadCost(1024 * 1024 + 1)).toEqual({ eventual: 128.5, strong: 257 });
  });
});
