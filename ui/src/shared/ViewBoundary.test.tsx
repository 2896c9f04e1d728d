import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { ViewBoundary } from "./ViewBoundary";

afterEach(cleanup);

let broken = true;

function Fragile() {
  const [n, setN] = useState(0);
  if (broken && n > 0) throw new TypeError("e is not an Object");
  return (
    <button type="button" data-testid="fragile" onClick={() => setN(n + 1)}>
      fine {n}
    </button>
  );
}

describe("ViewBoundary", () => {
  it("replaces only the failed view with a sentence and a reload, and the reload draws it afresh", () => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    broken = true;
    render(
      <div>
        <p data-testid="beside">the sidebar</p>
        <ViewBoundary what="The New table form">
          <Fragile />
        </ViewBoundary>
      </div>,
    );
    fireEvent.click(screen.getByTestId("fragile"));
    expect(screen.getByTestId("view-failed").textContent).toContain("The New table form stopped because of a fault in DynoTable");
    expect(screen.getByTestId("view-failed").textContent).toContain("e is not an Object");
    expect(screen.getByTestId("beside").textContent).toBe("the sidebar");
    expect(document.activeElement).toBe(screen.getByTestId("view-failed-reload"));
    broken = false;
    fireEvent.click(screen.getByTestId("view-failed-reload"));
    expect(screen.queryByTestId("view-failed")).toBeNull();
    expect(screen.getByTestId("fragile").textContent).toBe("fine 0");
    quiet.mockRestore();
  });
});
