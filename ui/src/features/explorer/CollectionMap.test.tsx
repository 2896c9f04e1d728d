import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { CollectionMap, sharedPrefix } from "./CollectionMap";
import type { CollectionStat } from "../../ipc/bindings.gen";

afterEach(cleanup);

const stats: CollectionStat[] = [
  { partitionValue: { S: "VEH#V-7742" }, itemCount: 10, sizeBytes: 1_000, limitedSizeBytes: null },
  { partitionValue: { S: "VEH#V-7741" }, itemCount: 4_000, sizeBytes: 3_000_000, limitedSizeBytes: null },
  { partitionValue: { S: "VEH#V-0001" }, itemCount: 300, sizeBytes: 200_000, limitedSizeBytes: null },
];

const boxes = () => screen.getAllByRole("button").filter((b) => b.classList.contains("map-box"));
// Sizes are written as calc(<percent>% - 3px); the percentages carry the proportions.
const percent = (css: string) => parseFloat(/calc\(([\d.e-]+)%/.exec(css)?.[1] ?? "NaN");
const percentArea = (el: HTMLElement) => percent(el.style.width) * percent(el.style.height);

describe("sharedPrefix", () => {
  it("is what every key starts with, leaving each key something of its own", () => {
    expect(sharedPrefix(["VEH#V-7741", "VEH#V-0001", "VEH#V-7742"])).toBe("VEH#V-");
    // A key that is all prefix keeps its last character.
    expect(sharedPrefix(["USER#1", "USER#12"])).toBe("USER#");
    expect(sharedPrefix(["ab", "abc"])).toBe("");
    expect(sharedPrefix(["only"])).toBe("");
    expect(sharedPrefix(["9", "10", "100"])).toBe("");
  });
});

describe("CollectionMap", () => {
  it("draws one box per collection, largest first, areas in proportion to bytes", () => {
    render(<CollectionMap stats={stats} keyName="vehicleId" onOpen={vi.fn()} />);
    const all = boxes();
    // Every box carries its key: whole where it fits; a narrow box (680 px of map before it is
    // measured) leaves out "VEH#V-", the start every key shares, and the legend says so; the
    // full key is in its label and card.
    expect(all.map((b) => b.querySelector(".map-box-key")?.textContent)).toEqual(["VEH#V-7741", "0001", "7742"]);
    expect(screen.getByTestId("map-legend").textContent).toContain("a narrow box leaves out VEH#V-, the start every key shares");
    expect(all[0]!.querySelector(".map-box-size")?.textContent).toBe("4,000 items · 2.9 MB");
    expect(percentArea(all[0]!) / percentArea(all[1]!)).toBeCloseTo(15, 3);
    expect(percentArea(all[1]!) / percentArea(all[2]!)).toBeCloseTo(200, 2);
    expect(all[0]!.getAttribute("aria-label")).toBe("vehicleId = VEH#V-7741: 4,000 items, 2.9 MB");
  });

  it("switches to key order", () => {
    render(<CollectionMap stats={stats} keyName="vehicleId" onOpen={vi.fn()} />);
    fireEvent.click(screen.getByRole("radio", { name: "Key order" }));
    // (The smallest box holds 3 characters: too few for "7742", and "7…2" would tell nothing, so it
    // shows no key; its card and label tell it.)
    expect(boxes().map((b) => b.querySelector(".map-box-key")?.textContent)).toEqual(["0001", "VEH#V-7741", undefined]);
    expect(boxes()[2]!.getAttribute("aria-label")).toContain("vehicleId = VEH#V-7742: 10 items");
    expect(screen.getByRole("list", { name: "Collections, in key order" })).toBeTruthy();
  });

  it("orders numeric keys numerically", () => {
    const numeric: CollectionStat[] = ["10", "9", "100"].map((N) => ({ partitionValue: { N }, itemCount: 1, sizeBytes: 10, limitedSizeBytes: null }));
    render(<CollectionMap stats={numeric} keyName="id" onOpen={vi.fn()} defaultOrder="key" />);
    expect(boxes().map((b) => b.querySelector(".map-box-key")?.textContent)).toEqual(["9", "10", "100"]);
  });

  it("tells count and size on hover and focus, and opens on click", () => {
    const onOpen = vi.fn();
    render(<CollectionMap stats={stats} keyName="vehicleId" onOpen={onOpen} />);
    const [first, second] = boxes();
    expect(screen.queryByTestId("map-card")).toBeNull();
    fireEvent.mouseEnter(second!);
    expect(screen.getByTestId("map-details").textContent).toBe("vehicleId = VEH#V-0001: 300 items, 195 KB · 6.2 % of the table");
    // The card beside the box: the whole key, its figures, no gauge on a table without an LSI.
    const card = screen.getByTestId("map-card");
    expect(card.querySelector(".map-card-key")!.textContent).toBe("vehicleId = VEH#V-0001");
    expect(card.textContent).toContain("300 items · 195 KB · 6.2 % of the table");
    expect(card.querySelector("meter")).toBeNull();
    fireEvent.mouseLeave(second!);
    expect(screen.queryByTestId("map-card")).toBeNull();
    fireEvent.focus(first!);
    expect(screen.getByTestId("map-details").textContent).toBe("vehicleId = VEH#V-7741: 4,000 items, 2.9 MB · 93.7 % of the table");
    fireEvent.click(second!);
    expect(onOpen).toHaveBeenCalledWith({ S: "VEH#V-0001" });
  });

  it("tells neighbouring boxes apart by what their keys do not share, never by an ellipsis and an end, and has a legend", () => {
    const keys = Array.from({ length: 60 }, (_, i) => ({
      partitionValue: { S: `VEH#V-${100 + i}` },
      itemCount: 1,
      sizeBytes: 100 + i,
      limitedSizeBytes: null,
    }));
    render(<CollectionMap stats={keys} keyName="vehicleId" onOpen={vi.fn()} />);
    const labels = boxes().map((b) => b.querySelector(".map-box-key")!.textContent!);
    expect(labels.some((label) => label.startsWith("…"))).toBe(false);
    // VEH#V-100 … VEH#V-159 all start with "VEH#V-1": each label is what follows, so no two are alike.
    expect(new Set(labels).size).toBe(60);
    expect([...labels].sort()).toEqual(keys.map((k) => k.partitionValue.S.slice("VEH#V-1".length)).sort());
    expect(screen.getByTestId("map-legend").textContent).toContain("leaves out VEH#V-1, the start every key shares");
    expect(screen.getByTestId("map-legend").textContent).toContain("one item collection (one vehicleId value)");
  });

  it("cuts a key in its middle only where enough of it is left to read, else shows none", () => {
    // Keys with no start in common, one large collection and many small: narrow boxes.
    const words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"];
    const keys: CollectionStat[] = [
      { partitionValue: { S: "order-2024-000001-europe" }, itemCount: 9_000, sizeBytes: 9_000_000, limitedSizeBytes: null },
      ...Array.from({ length: 40 }, (_, i) => ({
        partitionValue: { S: `${words[i % 10]}-${String(i * 7919).padStart(6, "0")}-customer` },
        itemCount: 1,
        sizeBytes: 2_000 + i * i * 2_000,
        limitedSizeBytes: null,
      })),
    ];
    render(<CollectionMap stats={keys} keyName="pk" onOpen={vi.fn()} />);
    const labels = boxes().map((b) => b.querySelector(".map-box-key")?.textContent);
    const full = new Set(keys.map((k) => ("S" in k.partitionValue ? k.partitionValue.S : "")));
    for (const label of labels) {
      if (label === undefined || full.has(label)) continue;
      // Cut: at least two characters of its start and four of its end.
      expect(label).toMatch(/^[^…]{2,}…[^…]{4,}$/);
    }
    expect(labels.some((label) => label !== undefined && label.includes("…"))).toBe(true);
    expect(labels.some((label) => label === undefined)).toBe(true);
    expect(labels).not.toContain("");
    expect(screen.getByTestId("map-legend").textContent).toContain("a box too narrow for its key tells it when pointed at or focused");
  });

  it("writes its legend as one sentence beside the sample box", () => {
    render(<CollectionMap stats={stats} keyName="vehicleId" onOpen={vi.fn()} openHint="brings its box into view below" />);
    const legend = screen.getByTestId("map-legend");
    // Two parts, the box and the text: the words are not each a piece of the legend's own layout.
    expect([...legend.childNodes].map((n) => (n as HTMLElement).className)).toEqual(["map-legend-box", "map-legend-text"]);
    const text = screen.getByTestId("map-legend-text").textContent;
    expect(text).toBe(
      "one item collection (one vehicleId value) · area: its size in bytes · a click brings its box into view below · a narrow box leaves out VEH#V-, the start every key shares",
    );
  });

  it("measures a collection against the LSI limit on its card", () => {
    const lsi: CollectionStat[] = [{ partitionValue: { S: "CUST#1" }, itemCount: 3, sizeBytes: 2048, limitedSizeBytes: 3072 }];
    render(<CollectionMap stats={lsi} keyName="customerId" onOpen={vi.fn()} sizeLimit={10 * 1024 ** 3} />);
    fireEvent.focus(boxes()[0]!);
    expect(screen.getByTestId("map-details").textContent).toContain("of the 10 GB item-collection limit (< 0.1 %)");
    // The card beside the box draws the gauge: the collection's bytes with its index entries
    // against 10 GB.
    const gauge = screen.getByTestId("map-card").querySelector("meter")!;
    expect(Number(gauge.getAttribute("value"))).toBe(3072);
    expect(Number(gauge.getAttribute("max"))).toBe(10 * 1024 ** 3);
    expect(screen.getByTestId("map-card").textContent).toContain("3 KB of the 10 GB item-collection limit (< 0.1 %)");
  });

  it("is one Tab stop, with arrow keys moving between boxes", () => {
    render(<CollectionMap stats={stats} keyName="vehicleId" onOpen={vi.fn()} />);
    expect(boxes().map((b) => b.tabIndex)).toEqual([0, -1, -1]);
    boxes()[0]!.focus();
    fireEvent.keyDown(boxes()[0]!, { key: "ArrowRight" });
    expect(document.activeElement).toBe(boxes()[1]);
    fireEvent.keyDown(boxes()[1]!, { key: "End" });
    expect(document.activeElement).toBe(boxes()[2]);
    expect(boxes().map((b) => b.tabIndex)).toEqual([-1, -1, 0]);
  });

  it("moves with the arrow keys to the box drawn beside the focused one, not to the next in the list", () => {
    // Largest first, laid out in the 1000 × 560 map (x, y, width, height):
    // 0 [0,0,417,299]   2 [417,0,306,305]   4 [722,0,278,224]
    // 1 [0,299,417,261] 3 [417,305,306,255] 5 [722,224,278,168]
    //                                       6 [722,392,185,168] 7 [907,392,93,168]
    const eight: CollectionStat[] = [8, 7, 6, 5, 4, 3, 2, 1].map((kb) => ({ partitionValue: { S: `K${kb}` }, itemCount: kb, sizeBytes: kb * 1024, limitedSizeBytes: null }));
    render(<CollectionMap stats={eight} keyName="pk" onOpen={vi.fn()} />);
    const at = () => boxes().indexOf(document.activeElement as HTMLElement);
    const press = (key: string) => fireEvent.keyDown(document.activeElement!, { key });
    boxes()[0]!.focus();
    press("ArrowRight");
    expect(at()).toBe(2);
    press("ArrowRight");
    expect(at()).toBe(4);
    press("ArrowDown");
    expect(at()).toBe(5);
    // Below 5 are 6 and 7: 6, whose middle is nearer 5's.
    press("ArrowDown");
    expect(at()).toBe(6);
    press("ArrowRight");
    expect(at()).toBe(7);
    // At the map's edge the focus stays.
    press("ArrowRight");
    expect(at()).toBe(7);
    press("ArrowLeft");
    press("ArrowLeft");
    expect(at()).toBe(3);
    press("ArrowUp");
    expect(at()).toBe(2);
    press("ArrowLeft");
    press("ArrowDown");
    expect(at()).toBe(1);
    // Home and End: the first and the last of the list.
    press("End");
    expect(at()).toBe(7);
    press("Home");
    expect(at()).toBe(0);
  });

  it("draws the largest boxes only, counting the rest", () => {
    const many: CollectionStat[] = Array.from({ length: 10 }, (_, i) => ({ partitionValue: { N: String(i) }, itemCount: 1, sizeBytes: (i + 1) * 100, limitedSizeBytes: null }));
    render(<CollectionMap stats={many} keyName="id" onOpen={vi.fn()} maxBoxes={4} />);
    expect(boxes().map((b) => b.querySelector(".map-box-key")?.textContent)).toEqual(["9", "8", "7", "6"]);
    expect(screen.getByText(/6 smaller collections are not drawn/).textContent).toContain("(2.1 KB in all)");
  });

  it("counts and shares against the whole table when the statistics list only its largest collections", () => {
    // The statistics list the largest 500 of a table's collections: the map is told the rest.
    const listed: CollectionStat[] = Array.from({ length: 4 }, (_, i) => ({ partitionValue: { N: String(i) }, itemCount: 10, sizeBytes: 1000, limitedSizeBytes: null }));
    render(<CollectionMap stats={listed} totals={{ collections: 10_000, items: 1_000_000, bytes: 400_000 }} keyName="id" onOpen={vi.fn()} maxBoxes={3} />);
    expect(screen.getByText(/10,000 collections/).textContent).toContain("1,000,000 items");
    expect(screen.getByTestId("map-hidden").textContent).toContain("9,997 smaller collections are not drawn");
    expect(screen.getByTestId("map-hidden").textContent).toContain("(388 KB in all)");
    fireEvent.focus(boxes()[0]!);
    expect(screen.getByTestId("map-details").textContent).toContain("0.3 % of the table");
  });
});
