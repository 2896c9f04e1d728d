import { afterEach, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useFleetingNotice } from "./useFleetingNotice";

afterEach(cleanup);

function Notice() {
  const [notice, setNotice] = useFleetingNotice();
  return (
    <>
      <button type="button" onClick={() => setNotice("Copied.")}>
        Copy
      </button>
      <p data-testid="notice">{notice}</p>
    </>
  );
}

describe("useFleetingNotice", () => {
  it("shows a notice until the next key (not a modifier alone) or pointer pressed anywhere", () => {
    render(<Notice />);
    const notice = screen.getByTestId("notice");
    fireEvent.click(screen.getByRole("button", { name: "Copy" }));
    expect(notice.textContent).toBe("Copied.");
    act(() => {
      fireEvent.keyDown(document.body, { key: "Shift", shiftKey: true });
    });
    expect(notice.textContent).toBe("Copied.");
    act(() => {
      fireEvent.keyDown(document.body, { key: "Tab" });
    });
    expect(notice.textContent).toBe("");

    fireEvent.click(screen.getByRole("button", { name: "Copy" }));
    expect(notice.textContent).toBe("Copied.");
    act(() => {
      fireEvent.pointerDown(document.body);
    });
    expect(notice.textContent).toBe("");
  });
});
