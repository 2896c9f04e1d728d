import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { ConfirmInline } from "./ConfirmInline";

afterEach(cleanup);

describe("ConfirmInline", () => {
  it("asks its question with the action focused, and answers yes on the action, no on Cancel or Escape", () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(
      <ConfirmInline action="Create" testId="go" onConfirm={onConfirm} onCancel={onCancel}>
        Create Orders?
      </ConfirmInline>,
    );
    const group = screen.getByRole("group", { name: "Confirm" });
    expect(group.textContent).toContain("Create Orders?");
    expect(document.activeElement).toBe(screen.getByTestId("go"));
    fireEvent.keyDown(screen.getByTestId("go"), { key: "Escape" });
    expect(onCancel).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onCancel).toHaveBeenCalledTimes(2);
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId("go"));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
