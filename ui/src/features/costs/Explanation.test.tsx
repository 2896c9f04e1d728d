import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { Explanation } from "./Explanation";

afterEach(cleanup);

describe("Explanation", () => {
  it("shows each line's sentence, not the code of the rule it applies", () => {
    render(
      <Explanation
        label="How"
        lines={[
          { rule: "B.1", text: "The item is 1,027 bytes" },
          { rule: "B.12", text: "A month is 730 hours" },
          { rule: null, text: "No index to write" },
        ]}
      />,
    );
    const list = screen.getByRole("list", { name: "How" });
    expect([...list.querySelectorAll("li")].map((li) => li.textContent)).toEqual([
      "The item is 1,027 bytes",
      "A month is 730 hours",
      "No index to write",
    ]);
    expect(list.textContent).not.toMatch(/B\.\d/);
  });
});
