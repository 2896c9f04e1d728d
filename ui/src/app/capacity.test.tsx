import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { CapacityProvider, useCapacityTotals, useRecordCapacity } from "./capacity";

describe("the capacity ledger", () => {
  afterEach(cleanup);

  it("renders again only what shows the totals when a read is recorded, not what records", () => {
    let recorderRenders = 0;
    let totalsRenders = 0;
    function Recorder() {
      recorderRenders += 1;
      const record = useRecordCapacity();
      return (
        <button type="button" onClick={() => record("read", 0.5)}>
          read
        </button>
      );
    }
    function Totals() {
      totalsRenders += 1;
      const totals = useCapacityTotals();
      return <span data-testid="totals">{totals.readUnits}</span>;
    }
    render(
      <CapacityProvider>
        <Recorder />
        <Totals />
      </CapacityProvider>,
    );
    expect([recorderRenders, totalsRenders]).toEqual([1, 1]);
    for (let i = 0; i < 3; i++) fireEvent.click(screen.getByRole("button", { name: "read" }));
    expect(screen.getByTestId("totals").textContent).toBe("1.5");
    expect(totalsRenders).toBe(4);
    expect(recorderRenders).toBe(1);
  });

  it("ignores what is not a positive number of units", () => {
    function Both() {
      const record = useRecordCapacity();
      const totals = useCapacityTotals();
      return (
        <button type="button" onClick={() => (record("write", Number.NaN), record("write", -1), record("write", 0), record("write", 2))}>
          {totals.writeUnits}
        </button>
      );
    }
    render(
      <CapacityProvider>
        <Both />
      </CapacityProvider>,
    );
    fireEvent.click(screen.getByRole("button"));
    expect(screen.getByRole("button").textContent).toBe("2");
  });
});
