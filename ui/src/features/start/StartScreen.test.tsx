import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, renderHook, screen, waitFor, act } from "@testing-library/react";
import { StartScreen } from "./StartScreen";
import { STORY, TEN_MINUTE_WINDOW } from "./story";
import { useDemoTables } from "./useDemoTables";
import { commandsWrapper } from "../../ipc/testCommands";
import { useStartScreen } from "./useStartScreen";
import type { Profile } from "../../ipc/bindings.gen";

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

const embedded: Profile = {
  id: "embedded",
  name: "Embedded",
  color: "#3366ff",
  region: "local",
  readOnly: false,
  connection: { kind: "embedded" },
} as Profile;

const demo = (tables: string[]) => ({ status: "ok" as const, data: { profile: embedded, tables: new Set(tables) } });

describe("StartScreen", () => {
  it("lists the five steps of the demo story, and each opens its table with its request", () => {
    const onOpen = vi.fn();
    render(<StartScreen demo={demo(["Telemetry", "CustomerOrders"])} onOpen={onOpen} onDismiss={() => {}} />);
    const buttons = screen.getAllByRole("button", { name: /^Step \d/ });
    expect(buttons.map((b) => b.getAttribute("aria-label"))).toEqual([
      "Step 1: One vehicle's item collection (opens Telemetry)",
      "Step 2: A ten-minute window, newest first (opens Telemetry)",
      "Step 3: The same readings, regrouped by a GSI (opens Telemetry)",
      "Step 4: The 10 GB limit of a table with an LSI (opens CustomerOrders)",
      "Step 5: A hot partition (opens Telemetry)",
    ]);
    fireEvent.click(buttons[0]!);
    expect(onOpen).toHaveBeenLastCalledWith(embedded, "Telemetry", { view: "collections", groupBy: null, reveal: { S: "VEH#V-7741" } });
    fireEvent.click(buttons[1]!);
    expect(onOpen).toHaveBeenLastCalledWith(embedded, "Telemetry", { view: "cost", query: TEN_MINUTE_WINDOW });
    fireEvent.click(buttons[2]!);
    expect(onOpen).toHaveBeenLastCalledWith(embedded, "Telemetry", { view: "collections", groupBy: "ByDepot" });
    fireEvent.click(buttons[3]!);
    expect(onOpen).toHaveBeenLastCalledWith(embedded, "CustomerOrders", { view: "indexes" });
  });

  it("the window step is the seed's key condition: one collection, BETWEEN, newest first", () => {
    expect(TEN_MINUTE_WINDOW.partitionValue).toEqual({ S: "VEH#V-7741" });
    expect(TEN_MINUTE_WINDOW.sortCondition).toEqual({ op: "between", low: { S: "TS#2025-03-14T09:00:00Z" }, high: { S: "TS#2025-03-14T09:10:00Z" } });
    expect(TEN_MINUTE_WINDOW.scanIndexForward).toBe(false);
    expect(TEN_MINUTE_WINDOW.filter).toBeNull();
    expect(new Set(STORY.map((s) => s.id)).size).toBe(STORY.length);
  });

  it("names the status bar's control that brings the screen back by its label", () => {
    render(<StartScreen demo={demo(["Telemetry"])} onOpen={() => {}} onDismiss={() => {}} />);
    const intro = document.querySelector(".start-intro")!.textContent!;
    expect(intro).toContain("“Start screen” button in the status bar");
    expect(intro).not.toContain("Help in the status bar");
  });

  it("says what ByDepot's boxes open on: its sort key is recordedAt, so the vehicles' META items come before the readings", () => {
    const step = STORY.find((s) => s.id === "by-depot")!;
    expect(step.what).toContain("recordedAt");
    expect(step.what).toMatch(/opens on the META items/);
    expect(step.what).toMatch(/readings come after them, in time order/);
  });

  it("waits for the engine, and disables a step whose demo table is gone", () => {
    render(<StartScreen demo={{ status: "loading" }} onOpen={() => {}} onDismiss={() => {}} />);
    expect(screen.getByTestId("start-loading")).toBeTruthy();
    expect(screen.getAllByRole("button", { name: /^Step/ }).every((b) => (b as HTMLButtonElement).disabled)).toBe(true);
    cleanup();
    render(<StartScreen demo={demo(["Telemetry"])} onOpen={() => {}} onDismiss={() => {}} />);
    const lsi = screen.getByTestId("start-step-lsi-gauge");
    expect(lsi.textContent).toContain("The demo table CustomerOrders is not in the embedded engine any more");
    expect((screen.getByRole("button", { name: /^Step 4/ }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: /^Step 1/ }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe("useStartScreen", () => {
  it("is shown until dismissed, stays dismissed on the next launch, and comes back when asked", () => {
    const first = renderHook(() => useStartScreen());
    expect(first.result.current.shown).toBe(true);
    act(() => first.result.current.dismiss());
    expect(first.result.current.shown).toBe(false);
    first.unmount();
    const next = renderHook(() => useStartScreen());
    expect(next.result.current.shown).toBe(false);
    act(() => next.result.current.reopen());
    expect(next.result.current.shown).toBe(true);
  });
});

describe("useDemoTables", () => {
  it("finds the embedded profile and every page of its tables", async () => {
    const source = {
      listProfiles: vi.fn(async () => ({ status: "ok" as const, data: [{ ...embedded, id: "aws", connection: { kind: "aws-profile", profileName: "x" } } as Profile, embedded] })),
      listTables: vi.fn(async (_p: string, start: string | null) => ({
        status: "ok" as const,
        data: start === null ? { names: ["CustomerOrders"], nextStart: "CustomerOrders" } : { names: ["Telemetry"], nextStart: null },
      })),
    };
    const { result } = renderHook(() => useDemoTables(), { wrapper: commandsWrapper(source) });
    await waitFor(() => expect(result.current.status).toBe("ok"));
    const ok = result.current as { status: "ok"; data: { profile: Profile; tables: Set<string> } };
    expect(ok.data.profile.id).toBe("embedded");
    expect([...ok.data.tables]).toEqual(["CustomerOrders", "Telemetry"]);
    expect(source.listTables).toHaveBeenCalledWith("embedded", "CustomerOrders");
  });
});
