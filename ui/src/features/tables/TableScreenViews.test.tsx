/** The table screen's views: its header, the tabs of its views and the keys that move between them. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { TableScreen } from "./TableScreen";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";
import { CapacityProvider } from "../../app/capacity";
import type { Profile, TableDescription } from "../../ipc/bindings.gen";
import { POLL_MS } from "../simulations/useTableSimulations";
import { tabbables } from "../../shared/useModalDialog";
import { embedded, layOutCollections, openButton, renderScreen, source, telemetry } from "./tableScreenFixture";

afterEach(cleanup);
layOutCollections();

describe("TableScreen views", () => {
  it("heads the table with its keys and figures, and shows its views as tabs, Collections first", async () => {
    renderScreen(source());
    expect((await screen.findByTestId("table-key-chips")).textContent).toBe("vehicleId S · partitionrecordedAt S · sort");
    await waitFor(() =>
      expect(screen.getByTestId("table-figures").textContent).toBe("1,441 items · 146 KB · 2 collections · no secondary index · on-demand"),
    );
    const tabs = within(screen.getByRole("tablist", { name: "Views of Telemetry" })).getAllByRole("tab");
    expect(tabs.map((t) => t.textContent)).toEqual([
      "Collections",
      "Items",
      "Indexes side by side",
      "Cost",
      "Code & history",
      "Import/export",
      "Settings",
      "Stream",
      "TTL",
    ]);
    expect(tabs.map((t) => t.getAttribute("aria-selected"))).toEqual(["true", "false", "false", "false", "false", "false", "false", "false", "false"]);
    expect(screen.getByTestId("view-collections").getAttribute("role")).toBe("tabpanel");
    // Views are built on their first visit: Settings is not there yet.
    expect(screen.queryByTestId("view-settings")).toBeNull();
    expect(screen.queryByRole("group", { name: /accordion/ })).toBeNull();
    expect(document.querySelector('[role="tabpanel"] details > summary')).toBeNull();
    // One query bar above the views.
    expect(screen.getAllByTestId("query-bar")).toHaveLength(1);
  });

  it("keeps a view's state while another view is shown", async () => {
    const fake = source();
    renderScreen(fake);
    fireEvent.click(await openButton());
    // Opening a collection from the map shows it in the Items view.
    await waitFor(() => expect(screen.getByTestId("view-tab-items").getAttribute("aria-selected")).toBe("true"));
    const region = await screen.findByRole("region", { name: /Item collection vehicleId = VEH#V-7741/ });
    fireEvent.click(screen.getByTestId("view-tab-settings"));
    expect(screen.getByTestId("view-items").hidden).toBe(true);
    expect(screen.getByTestId("table-keys").textContent).toBe("vehicleId (S, partition) + recordedAt (S, sort)");
    fireEvent.click(screen.getByTestId("view-tab-items"));
    expect(screen.getByTestId("view-items").hidden).toBe(false);
    expect(screen.getByTestId("view-settings").hidden).toBe(true);
    // The same box, not a new one: nothing was queried again.
    expect(screen.getByRole("region", { name: /Item collection vehicleId = VEH#V-7741/ })).toBe(region);
    expect(fake.runReadRequest).toHaveBeenCalledTimes(1);
    // The Collections view kept its boxes too: back on it, nothing is read again.
    const before = (fake.query as ReturnType<typeof vi.fn>).mock.calls.length;
    fireEvent.click(screen.getByTestId("view-tab-collections"));
    expect(screen.getAllByTestId("collection-run-box").length).toBeGreaterThan(0);
    expect((fake.query as ReturnType<typeof vi.fn>).mock.calls.length).toBe(before);
  });

  it("opens the Indexes view on the collection the query bar holds, then on the one a Query from the bar read", async () => {
    const withLsi: TableDescription = {
      ...telemetry,
      indexes: [
        {
          name: "ByStatus",
          kind: "local",
          keys: { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "status", type: "S" } },
          projection: { type: "ALL", attributes: [] },
          backfilling: null,
          itemCount: null,
          sizeBytes: null,
          status: null,
        },
      ],
    };
    const indexesSideBySide = vi.fn(() => new Promise(() => {}));
    const fake = source({ describeTable: vi.fn(async () => ({ status: "ok" as const, data: withLsi })), indexesSideBySide } as Partial<Commands>);
    renderScreen(fake);
    fireEvent.change(await screen.findByTestId("qb-pk"), { target: { value: "VEH#V-1007" } });
    fireEvent.click(screen.getByTestId("view-tab-indexes"));
    await waitFor(() => expect(indexesSideBySide).toHaveBeenCalled());
    expect(indexesSideBySide.mock.calls).toEqual([["embedded", "Telemetry", { kind: "partition", value: { S: "VEH#V-1007" }, limit: 25 }]]);
    expect((screen.getByLabelText("vehicleId value") as HTMLInputElement).value).toBe("VEH#V-1007");
    // A Query run from a box (through the bar) while the view is hidden: laid out once it is shown.
    fireEvent.click(screen.getByTestId("view-tab-collections"));
    fireEvent.click(await openButton());
    await waitFor(() => expect(fake.runReadRequest).toHaveBeenCalled());
    expect(indexesSideBySide).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByTestId("view-tab-indexes"));
    await waitFor(() => expect(indexesSideBySide).toHaveBeenCalledTimes(2));
    expect(indexesSideBySide).toHaveBeenLastCalledWith("embedded", "Telemetry", { kind: "partition", value: { S: "VEH#V-7741" }, limit: 25 });
    expect((screen.getByLabelText("vehicleId value") as HTMLInputElement).value).toBe("VEH#V-7741");
  });

  it("on the embedded engine, shows its simulations in Settings, read only while Settings is shown", async () => {
    const tableSimulations = vi.fn(async () => ({
      status: "ok" as const,
      data: {
        table: "Telemetry",
        settings: { enforceCapacity: true, eventualLagMs: null, seed: 0 },
        throttledRequests: 2,
        laggedReads: 0,
        throttledOnEveryTable: 2,
      },
    }));
    // The panel's polls are timers on a clock that runs as usual and can also be moved on at once.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderScreen(source({ tableSimulations }));
    fireEvent.click(await screen.findByTestId("view-tab-settings"));
    const settings = screen.getByTestId("view-settings");
    expect(within(settings).getByRole("heading", { name: "Simulations of the embedded engine" })).toBeTruthy();
    await waitFor(() => expect(within(settings).getByTestId("sim-throttled").textContent).toBe("2 requests"));
    expect(tableSimulations).toHaveBeenCalledWith("embedded", "Telemetry");
    expect((within(settings).getByTestId("sim-enforce-capacity") as HTMLInputElement).checked).toBe(true);
    // Another view shown: no more reads.
    fireEvent.click(screen.getByTestId("view-tab-collections"));
    const calls = tableSimulations.mock.calls.length;
    await act(async () => vi.advanceTimersByTime(POLL_MS * 5));
    expect(tableSimulations.mock.calls.length).toBe(calls);
    vi.useRealTimers();
  });

  it("on an AWS connection, has no simulations in Settings", async () => {
    const fake = source();
    const aws: Profile = { ...embedded, id: "p1", name: "prod", connection: { kind: "aws-profile", profileName: "prod" } };
    renderScreen(fake, aws);
    fireEvent.click(await screen.findByTestId("view-tab-settings"));
    expect(screen.getByTestId("view-settings").textContent).toContain("Change");
    expect(screen.queryByTestId("simulations")).toBeNull();
    expect(fake.tableSimulations).not.toHaveBeenCalled();
  });

  it("moves between views with the arrow keys and with Alt+1 … Alt+9", async () => {
    renderScreen(source());
    const collections = await screen.findByTestId("view-tab-collections");
    collections.focus();
    fireEvent.keyDown(collections, { key: "ArrowRight" });
    expect(screen.getByTestId("view-tab-items").getAttribute("aria-selected")).toBe("true");
    expect(document.activeElement).toBe(screen.getByTestId("view-tab-items"));
    fireEvent.keyDown(screen.getByTestId("view-tab-items"), { key: "End" });
    expect(screen.getByTestId("view-tab-ttl").getAttribute("aria-selected")).toBe("true");
    fireEvent.keyDown(screen.getByTestId("view-tab-ttl"), { key: "ArrowRight" });
    expect(screen.getByTestId("view-tab-collections").getAttribute("aria-selected")).toBe("true");
    fireEvent.keyDown(document.body, { key: "8", code: "Digit8", altKey: true });
    expect(screen.getByTestId("view-tab-stream").getAttribute("aria-selected")).toBe("true");
    fireEvent.keyDown(document.body, { key: "4", code: "Digit4", altKey: true });
    expect(screen.getByTestId("view-tab-cost").getAttribute("aria-selected")).toBe("true");
    expect(screen.getByTestId("view-cost").hidden).toBe(false);
    // Only the tab in the Tab order is the selected one.
    expect(screen.getAllByRole("tab").filter((t) => t.tabIndex === 0)).toEqual([screen.getByTestId("view-tab-cost")]);
  });

  it("puts the focus on the new view's tab when Alt+digit hides what had it (a view, the query bar)", async () => {
    renderScreen(source());
    await screen.findByTestId("view-tab-collections");
    // In the query bar, then Settings (where the bar is hidden).
    const pk = screen.getByTestId("qb-pk");
    pk.focus();
    fireEvent.keyDown(pk, { key: "7", code: "Digit7", altKey: true });
    expect(screen.getByTestId("view-tab-settings").getAttribute("aria-selected")).toBe("true");
    expect(document.activeElement).toBe(screen.getByTestId("view-tab-settings"));
    // In the Settings view, then Items.
    const control = tabbables(screen.getByTestId("view-settings"))[0]!;
    control.focus();
    fireEvent.keyDown(control, { key: "2", code: "Digit2", altKey: true });
    expect(document.activeElement).toBe(screen.getByTestId("view-tab-items"));
    // What is still on show keeps the focus: the bar, from Items to Cost.
    pk.focus();
    fireEvent.keyDown(pk, { key: "4", code: "Digit4", altKey: true });
    expect(screen.getByTestId("view-tab-cost").getAttribute("aria-selected")).toBe("true");
    expect(document.activeElement).toBe(pk);
  });

  it("does not switch the views of a table screen that is hidden behind another tab", async () => {
    renderWithCommands(
      <CapacityProvider>
        <div hidden>
          <TableScreen profile={embedded} tableName="Telemetry" />
        </div>
      </CapacityProvider>,
      source(),
    );
    await screen.findByTestId("view-tab-collections");
    fireEvent.keyDown(document.body, { key: "2", code: "Digit2", altKey: true });
    expect(screen.getByTestId("view-tab-collections").getAttribute("aria-selected")).toBe("true");
  });

});
