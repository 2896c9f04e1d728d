import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { ResultCollections, resultBoxes } from "./ResultCollections";

// jsdom lays nothing out: the results' scroll is 600 px tall.
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, "clientHeight", {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains("pq-collections") ? 600 : 0;
    },
  });
});
afterAll(() => {
  delete (HTMLElement.prototype as unknown as Record<string, unknown>).clientHeight;
});
afterEach(cleanup);

const pet = (animal: string, name: string, age?: string) => ({
  AnimalType: { S: animal },
  Name: { S: name },
  ...(age === undefined ? {} : { Age: { N: age } }),
});

describe("resultBoxes", () => {
  it("groups the items by partition-key value, in the order met, each box in sort-key order", () => {
    const { boxes, loose } = resultBoxes([pet("Dog", "Spot"), pet("Cat", "Tom"), pet("Dog", "Bella"), pet("Dog", "Fido")], "AnimalType", "Name");
    expect(boxes.map((b) => [b.value, b.items.map((i) => i.Name)])).toEqual([
      [{ S: "Dog" }, [{ S: "Bella" }, { S: "Fido" }, { S: "Spot" }]],
      [{ S: "Cat" }, [{ S: "Tom" }]],
    ]);
    expect(loose).toBe(0);
  });

  it("orders a number sort key numerically and strings by their bytes, as DynamoDB does", () => {
    const reading = (ts: string) => ({ device: { S: "D" }, ts: { N: ts } });
    const numbers = resultBoxes([reading("10"), reading("9"), reading("-1.5"), reading("100")], "device", "ts");
    expect(numbers.boxes[0]!.items.map((i) => i.ts)).toEqual([{ N: "-1.5" }, { N: "9" }, { N: "10" }, { N: "100" }]);
    // "Z" (0x5A) sorts before "a" (0x61), and "é" (0xC3 0xA9) after both.
    const strings = resultBoxes([pet("Dog", "é"), pet("Dog", "a"), pet("Dog", "Z")], "AnimalType", "Name");
    expect(strings.boxes[0]!.items.map((i) => i.Name)).toEqual([{ S: "Z" }, { S: "a" }, { S: "é" }]);
  });

  it("counts the items a projection left without the partition key apart", () => {
    const { boxes, loose } = resultBoxes([{ Name: { S: "Spot" } }, pet("Dog", "Fido")], "AnimalType", "Name");
    expect(boxes).toHaveLength(1);
    expect(loose).toBe(1);
  });
});

describe("ResultCollections", () => {
  it("draws one box per collection with its key and count, and its rows in sort-key order", () => {
    render(<ResultCollections items={[pet("Dog", "Spot", "11"), pet("Cat", "Tom", "9"), pet("Dog", "Bella", "2")]} keys={["AnimalType", "Name"]} />);
    expect(screen.getByTestId("partiql-collections-summary").textContent).toBe("2 collections of AnimalType, each in Name order");
    expect(screen.getAllByTestId("partiql-box").map((b) => b.textContent)).toEqual(["AnimalType = Dog2 items", "AnimalType = Cat1 item"]);
    expect(screen.getAllByTestId("partiql-box-row").map((r) => r.textContent)).toEqual(["Bella2", "Spot11", "Tom9"]);
    // The lines follow one another in the list's window: none carries a style of its own.
    for (const line of [...screen.getAllByTestId("partiql-box"), ...screen.getAllByTestId("partiql-box-row")]) expect(line.getAttribute("style")).toBeNull();
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["Name", "Age"]);
  });

  it("says why it cannot group when the statement's table is not known", () => {
    render(<ResultCollections items={[pet("Dog", "Spot")]} keys={[]} />);
    expect(screen.getByTestId("partiql-collections-unknown").textContent).toContain("cannot be grouped into collections");
  });
});
