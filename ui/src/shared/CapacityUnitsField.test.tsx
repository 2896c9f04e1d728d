import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { CapacityUnitsField } from "./CapacityUnitsField";

afterEach(cleanup);

const SENTENCE = "Enter a whole number from 1 to 40,000.";

function renderField(value: string, onChange = vi.fn()) {
  render(<CapacityUnitsField label="RCU" name="Read capacity units" testId="some-rcu" value={value} onChange={onChange} />);
  return { input: screen.getByLabelText("Read capacity units") as HTMLInputElement, onChange };
}

describe("CapacityUnitsField", () => {
  it.each(["1", "5", "40000", " 12 "])("takes %j as units: no problem, not marked invalid", (value) => {
    const { input } = renderField(value);
    expect(input.getAttribute("aria-invalid")).toBe("false");
    expect(input.getAttribute("aria-describedby")).toBeNull();
    expect(screen.queryByTestId("some-rcu-problem")).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it.each(["0", "-1", "1.5", "abc", "40001", ""])("refuses %j with the sentence beside the field, tied to it", (value) => {
    const { input } = renderField(value);
    expect(input.getAttribute("aria-invalid")).toBe("true");
    const problem = screen.getByTestId("some-rcu-problem");
    expect(problem.textContent).toBe(SENTENCE);
    expect(input.getAttribute("aria-describedby")).toBe(problem.id);
    expect(problem.id).toBe("some-rcu-problem");
    expect(screen.getByRole("alert")).toBe(problem);
  });

  it("is a whole-number input from 1 to 40,000 captioned with its label, and hands back what is typed", () => {
    const { input, onChange } = renderField("5");
    expect(input.dataset.testid).toBe("some-rcu");
    expect(input.type).toBe("number");
    expect([input.min, input.max, input.step]).toEqual(["1", "40000", "1"]);
    expect(input.closest("label")?.textContent?.trim()).toBe("RCU");
    fireEvent.change(input, { target: { value: "12" } });
    expect(onChange).toHaveBeenCalledWith("12");
  });
});
