import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import type { CommandError, SimulationSettings, SimulationStatus, TableSimulations } from "../../ipc/bindings.gen";
import { SimulationPanel } from "./SimulationPanel";
import { POLL_MS } from "./useTableSimulations";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const off: SimulationSettings = { enforceCapacity: false, eventualLagMs: null, seed: 0 };

/** A fake embedded engine: its settings, and a throttled count the test raises. */
function fakeEngine() {
  const engine = { settings: off, throttled: 0, lagged: 0, everywhere: 0 };
  const source = {
    tableSimulations: vi.fn(async (_profileId: string, table: string) => ({
      status: "ok" as const,
      data: {
        table,
        settings: engine.settings,
        throttledRequests: engine.throttled,
        laggedReads: engine.lagged,
        throttledOnEveryTable: engine.everywhere,
      } satisfies TableSimulations,
    })),
    setSimulations: vi.fn(async (_profileId: string, settings: SimulationSettings) => {
      engine.settings = settings;
      return { status: "ok" as const, data: { settings, throttledRequests: engine.everywhere } satisfies SimulationStatus };
    }),
  } satisfies Partial<Commands>;
  return { engine, source };
}

describe("the simulations of a table's Settings", () => {
  it("switches throttling on with a keyboard-reachable checkbox, and says what it does", async () => {
    const { engine, source } = fakeEngine();
    renderWithCommands(<SimulationPanel profileId="embedded" table="Music" active />, source);
    const toggle = (await screen.findByRole("checkbox", { name: "Enforce capacity (throttle like DynamoDB)" })) as HTMLInputElement;
    expect(toggle.checked).toBe(false);
    expect(toggle.tabIndex).toBe(0);
    // Its sentence describes it to assistive technology too.
    const help = document.getElementById(toggle.getAttribute("aria-describedby")!)!;
    expect(help.textContent).toContain("ProvisionedThroughputExceededException");
    expect(help.textContent).toContain("300 s");

    toggle.focus();
    fireEvent.click(toggle);
    await waitFor(() => expect(source.setSimulations).toHaveBeenCalledWith("embedded", { ...off, enforceCapacity: true }));
    await waitFor(() => expect(toggle.checked).toBe(true));
    expect(engine.settings.enforceCapacity).toBe(true);
  });

  it("shows the table's throttled count rising, read again about once a second, never two reads at once", async () => {
    vi.useFakeTimers();
    const { engine, source } = fakeEngine();
    engine.settings = { ...off, enforceCapacity: true };
    renderWithCommands(<SimulationPanel profileId="embedded" table="Music" active />, source);
    await act(async () => {});
    expect(screen.getByTestId("sim-throttled").textContent).toBe("0 requests");
    expect(source.tableSimulations).toHaveBeenCalledTimes(1);

    engine.throttled = 3;
    engine.everywhere = 5;
    engine.lagged = 1;
    // Not before a second has passed since the last answer.
    await act(async () => vi.advanceTimersByTime(POLL_MS - 10));
    expect(source.tableSimulations).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId("sim-throttled").textContent).toBe("0 requests");
    await act(async () => vi.advanceTimersByTime(10));
    expect(source.tableSimulations).toHaveBeenCalledTimes(2);
    expect(screen.getByTestId("sim-throttled").textContent).toBe("3 requests");
    expect(screen.getByTestId("sim-throttled-everywhere").textContent).toBe("5 requests");
    expect(screen.getByTestId("sim-lagged").textContent).toBe("1 read");
  });

  it("stops reading while the Settings view is hidden", async () => {
    vi.useFakeTimers();
    const { source } = fakeEngine();
    const { rerender } = renderWithCommands(<SimulationPanel profileId="embedded" table="Music" active />, source);
    await act(async () => {});
    rerender(<SimulationPanel profileId="embedded" table="Music" active={false} />);
    await act(async () => vi.advanceTimersByTime(POLL_MS * 10));
    expect(source.tableSimulations).toHaveBeenCalledTimes(1);
  });

  it("applies a lag and its seed together, and an empty lag turns it off", async () => {
    const { engine, source } = fakeEngine();
    renderWithCommands(<SimulationPanel profileId="embedded" table="Music" active />, source);
    const lag = await screen.findByTestId("sim-lag-ms");
    fireEvent.change(lag, { target: { value: "abc" } });
    expect((screen.getByTestId("sim-lag-apply") as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(/whole number of milliseconds/)).toBeTruthy();

    fireEvent.change(lag, { target: { value: "250" } });
    fireEvent.change(screen.getByTestId("sim-seed"), { target: { value: "7" } });
    fireEvent.submit(lag.closest("form")!);
    await waitFor(() => expect(engine.settings).toEqual({ enforceCapacity: false, eventualLagMs: 250, seed: 7 }));
    await waitFor(() => expect((screen.getByTestId("sim-lag-ms") as HTMLInputElement).value).toBe("250"));

    fireEvent.change(screen.getByTestId("sim-lag-ms"), { target: { value: "" } });
    fireEvent.submit(screen.getByTestId("sim-lag-ms").closest("form")!);
    await waitFor(() => expect(engine.settings.eventualLagMs).toBeNull());
  });

  it("shows the engine's refusal of a setting, with its sentence", async () => {
    const { source } = fakeEngine();
    const refusal: CommandError = { code: "VALIDATION", message: "The eventual-consistency lag must be from 1 to 3600000 ms, not 0.", exception: null };
    source.setSimulations.mockResolvedValueOnce({ status: "error", error: refusal } as never);
    renderWithCommands(<SimulationPanel profileId="embedded" table="Music" active />, source);
    fireEvent.change(await screen.findByTestId("sim-lag-ms"), { target: { value: "0" } });
    fireEvent.click(screen.getByTestId("sim-lag-apply"));
    const alert = await screen.findByTestId("sim-save-error");
    expect(alert.textContent).toContain("from 1 to 3600000 ms");
  });

  it("on another connection says only the embedded engine has simulations, and stops asking", async () => {
    vi.useFakeTimers();
    const { source } = fakeEngine();
    const refusal: CommandError = { code: "EMBEDDED_ONLY", message: "Prod is not the embedded engine.", exception: null };
    source.tableSimulations.mockResolvedValue({ status: "error", error: refusal } as never);
    renderWithCommands(<SimulationPanel profileId="prod" table="Music" active />, source);
    await act(async () => {});
    expect(screen.getByRole("alert").textContent).toBe("Only the embedded engine does this: Prod is not the embedded engine.");
    await act(async () => vi.advanceTimersByTime(POLL_MS * 5));
    expect(source.tableSimulations).toHaveBeenCalledTimes(1);
  });
});
