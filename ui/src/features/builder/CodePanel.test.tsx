import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import type { ReadRequest } from "../../ipc/bindings.gen";
import { CODE_TARGETS, CodePanel } from "./CodePanel";
import { fakeSource } from "./fakeSource";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

afterEach(cleanup);

const request: ReadRequest = {
  operation: "Scan",
  tableName: "Pets",
  indexName: null,
  keyCondition: null,
  filter: null,
  projection: null,
  direction: "ascending",
  limit: null,
  consistentRead: false,
  returnConsumedCapacity: null,
};

// Rendering many controls is slow on a busy machine: 20 s, not the default 5 s.
describe("CodePanel", { timeout: 20_000 }, () => {
  it("has a tab per target, exports the request for the chosen one, and copies it", async () => {
    const exportCode = vi.fn<Commands["exportCode"]>(async (_r, target) => ({ status: "ok" as const, data: `code for ${target}` }));
    const clipboard = { writeText: vi.fn(async () => {}) };
    renderWithCommands(<CodePanel request={request} clipboard={clipboard} />, fakeSource({ exportCode }));
    expect(screen.getAllByRole("tab")).toHaveLength(CODE_TARGETS.length);
    await waitFor(() => expect(screen.getByTestId("code").textContent).toBe("code for awsCli"));
    fireEvent.click(screen.getByRole("tab", { name: "boto3 resource" }));
    await waitFor(() => expect(screen.getByTestId("code").textContent).toBe("code for pythonResource"));
    expect(exportCode).toHaveBeenLastCalledWith(request, "pythonResource");
    // Arrow keys move between the tabs.
    fireEvent.keyDown(screen.getByRole("tab", { name: "boto3 resource" }), { key: "ArrowRight" });
    await waitFor(() => expect(screen.getByTestId("code").textContent).toBe("code for rust"));
    fireEvent.click(screen.getByRole("button", { name: "Copy" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("Copied"));
    expect(clipboard.writeText).toHaveBeenCalledWith("code for rust");
  });

  it("is a row of tabs with one Tab stop: the arrows, Home and End move the focus with the selection", async () => {
    const exportCode = vi.fn<Commands["exportCode"]>(async (_r, target) => ({ status: "ok" as const, data: `code for ${target}` }));
    renderWithCommands(<CodePanel request={request} clipboard={undefined} />, fakeSource({ exportCode }));
    const tabs = screen.getAllByRole("tab");
    expect(tabs.filter((t) => t.tabIndex === 0)).toEqual([screen.getByRole("tab", { name: "AWS CLI" })]);
    tabs[0]!.focus();
    fireEvent.keyDown(document.activeElement!, { key: "ArrowRight" });
    const next = screen.getByRole("tab", { name: "JS client" });
    expect(document.activeElement).toBe(next);
    expect(next.getAttribute("aria-selected")).toBe("true");
    expect(next.tabIndex).toBe(0);
    fireEvent.keyDown(document.activeElement!, { key: "End" });
    expect(document.activeElement).toBe(screen.getByRole("tab", { name: "Java" }));
    fireEvent.keyDown(document.activeElement!, { key: "Home" });
    expect(document.activeElement).toBe(screen.getByRole("tab", { name: "AWS CLI" }));
    fireEvent.keyDown(document.activeElement!, { key: "ArrowLeft" });
    expect(document.activeElement).toBe(screen.getByRole("tab", { name: "Java" }));
    await waitFor(() => expect(screen.getByTestId("code").textContent).toBe("code for java"));
  });

  it("shows why a request cannot be exported", async () => {
    const exportCode = vi.fn<Commands["exportCode"]>(async () => ({
      status: "error" as const,
      error: { code: "VALIDATION" as const, message: "Choose the table to read", exception: null },
    }));
    renderWithCommands(<CodePanel request={{ ...request, tableName: "" }} clipboard={undefined} />, fakeSource({ exportCode }));
    await waitFor(() => expect(screen.getByText("Choose the table to read")).toBeTruthy());
  });
});
