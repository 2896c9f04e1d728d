import { afterEach, describe, expect, it, vi } from "vitest";
import { useState } from "react";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useModalDialog } from "./useModalDialog";

afterEach(cleanup);

/** A dialog with a step that, answered, goes away with the focus (as an inline confirmation does). */
function Dialog({ name, onEscape }: { name: string; onEscape: () => void }) {
  const dialog = useModalDialog<HTMLDivElement>(true, { onEscape });
  const [step, setStep] = useState(true);
  return (
    <div ref={dialog.ref} tabIndex={-1} role="dialog" aria-label={name} onKeyDown={dialog.onKeyDown}>
      <button type="button">{`first of ${name}`}</button>
      {step && (
        <button type="button" onClick={() => setStep(false)}>
          {`answer ${name}`}
        </button>
      )}
      <button type="button">{`last of ${name}`}</button>
    </div>
  );
}

const button = (name: string) => screen.getByRole("button", { name });

describe("useModalDialog", () => {
  it("keeps Shift+Tab inside as WebKitGTK reports it (key Unidentified, code Tab)", () => {
    render(<Dialog name="one" onEscape={() => {}} />);
    expect(document.activeElement).toBe(button("first of one"));
    fireEvent.keyDown(document.activeElement!, { key: "Unidentified", code: "Tab", shiftKey: true });
    expect(document.activeElement).toBe(button("last of one"));
    fireEvent.keyDown(document.activeElement!, { key: "Tab", code: "Tab" });
    expect(document.activeElement).toBe(button("first of one"));
  });

  it("answers Escape and Tab when the focus has fallen out of it onto the body", () => {
    const onEscape = vi.fn();
    render(<Dialog name="one" onEscape={onEscape} />);
    const answer = button("answer one");
    answer.focus();
    fireEvent.click(answer);
    expect(document.activeElement).toBe(document.body);
    // Tab brings the focus back in (Shift+Tab to the last control), and stays the dialog's.
    fireEvent.keyDown(document.body, { key: "Unidentified", code: "Tab", shiftKey: true });
    expect(document.activeElement).toBe(button("last of one"));
    (document.activeElement as HTMLElement).blur();
    fireEvent.keyDown(document.body, { key: "Tab" });
    expect(document.activeElement).toBe(button("first of one"));
    (document.activeElement as HTMLElement).blur();
    expect(fireEvent.keyDown(document.body, { key: "Escape" })).toBe(false);
    expect(onEscape).toHaveBeenCalledTimes(1);
  });

  it("leaves a key pressed outside to the dialog on top, and one in a hidden tab alone", () => {
    const under = vi.fn();
    const over = vi.fn();
    const { rerender } = render(
      <>
        <Dialog name="under" onEscape={under} />
        <Dialog name="over" onEscape={over} />
      </>,
    );
    (document.activeElement as HTMLElement).blur();
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect([under.mock.calls.length, over.mock.calls.length]).toEqual([0, 1]);
    rerender(
      <>
        <Dialog name="under" onEscape={under} />
        <div hidden>
          <Dialog name="over" onEscape={over} />
        </div>
      </>,
    );
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect([under.mock.calls.length, over.mock.calls.length]).toEqual([1, 1]);
  });

  it("does not take a key pressed inside another dialog, or outside once closed", () => {
    const onEscape = vi.fn();
    const { unmount } = render(
      <>
        <Dialog name="one" onEscape={onEscape} />
        <div role="alertdialog" aria-label="inline">
          <input aria-label="inline field" />
        </div>
      </>,
    );
    fireEvent.keyDown(screen.getByLabelText("inline field"), { key: "Escape" });
    expect(onEscape).not.toHaveBeenCalled();
    unmount();
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(onEscape).not.toHaveBeenCalled();
  });
});
