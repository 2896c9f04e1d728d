/**
 * Where the keyboard's focus goes when the query bar changes under it: Run keeps it while it runs,
 * Add filter hands it to the new filter's first field, and removing the filter hands it back to
 * Add filter (never to the document, from where Tab starts over at the top of the window).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { QueryPage } from "../../ipc/bindings.gen";
import { CapacityProvider } from "../../app/capacity";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";
import { fakeSource } from "../builder/fakeSource";
import { telemetry } from "../builder/fixtures";
import { fakeBuild } from "./fakeQuerySource";
import { QueryBar } from "./QueryBar";
import { useQueryModel } from "./useQueryModel";

afterEach(cleanup);

const page: QueryPage = {
  items: [],
  count: 0,
  scannedCount: 0,
  lastEvaluatedKey: null,
  consumedCapacity: { total: 0.5, table: 0.5, indexes: [] },
  stop: "end",
};

function Harness() {
  const model = useQueryModel({ profileId: "embedded", table: telemetry });
  return <QueryBar table={telemetry} model={model} suggestions={[]} seenAttributes={["speedKph", "odometerKm"]} />;
}

function renderBar(overrides: Partial<Commands> = {}) {
  const source = {
    ...fakeSource(),
    buildReadRequest: vi.fn(fakeBuild),
    runReadRequest: vi.fn(async () => ({ status: "ok" as const, data: page })),
    ...overrides,
  } as Commands;
  renderWithCommands(
    <CapacityProvider>
      <Harness />
    </CapacityProvider>,
    source,
  );
  return source;
}

describe("QueryBar focus", () => {
  it("keeps Run focusable while the Query runs: unavailable (aria-disabled), its clicks ignored, never disabled", async () => {
    let answer: ((value: { status: "ok"; data: QueryPage }) => void) | null = null;
    const source = renderBar({ runReadRequest: vi.fn(() => new Promise<{ status: "ok"; data: QueryPage }>((resolve) => (answer = resolve))) });
    fireEvent.change(screen.getByTestId("qb-pk"), { target: { value: "VEH#V-7741" } });
    const run = screen.getByTestId("qb-run") as HTMLButtonElement;
    await waitFor(() => expect(run.disabled).toBe(false));
    run.focus();
    fireEvent.click(run);
    await waitFor(() => expect(run.textContent).toBe("Running…"));
    // A disabled button gives the focus up (to the document, in WebKit): this one keeps it.
    expect(run.disabled).toBe(false);
    expect(run.getAttribute("aria-disabled")).toBe("true");
    expect(document.activeElement).toBe(run);
    fireEvent.click(run);
    fireEvent.keyDown(run, { key: "Enter", ctrlKey: true });
    expect(source.runReadRequest).toHaveBeenCalledTimes(1);
    answer!({ status: "ok", data: page });
    await waitFor(() => expect(run.textContent).toBe("Run Query"));
    expect(run.getAttribute("aria-disabled")).toBeNull();
    expect(document.activeElement).toBe(run);
  });

  it("puts the focus in the new filter's first field after Add filter, and back on Add filter after Remove filter", async () => {
    renderBar();
    const add = screen.getByTestId("qb-add-filter");
    add.focus();
    fireEvent.click(add);
    const filter = screen.getByRole("region", { name: "Filter" });
    const panel = within(filter).getByRole("tabpanel");
    const first = panel.querySelector("input, select, textarea");
    expect(first).not.toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(first));

    const remove = within(filter).getByRole("button", { name: "Remove filter" });
    remove.focus();
    fireEvent.click(remove);
    expect(screen.queryByRole("region", { name: "Filter" })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId("qb-add-filter")));
  });

  it("does the same for the projection: Choose attributes, then Remove projection", async () => {
    renderBar();
    fireEvent.click(screen.getByTestId("qb-add-projection"));
    const projection = screen.getByRole("region", { name: "Projection" });
    const first = within(projection).getByRole("tabpanel").querySelector("input, select, textarea");
    expect(first).not.toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(first));
    const remove = within(projection).getByRole("button", { name: "Remove projection" });
    remove.focus();
    fireEvent.click(remove);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId("qb-add-projection")));
  });

  it("lets the keyboard into the request's DynamoDB JSON, which scrolls: a focusable region named by its heading", async () => {
    renderBar();
    fireEvent.change(screen.getByTestId("qb-pk"), { target: { value: "VEH#V-7741" } });
    const body = await screen.findByTestId("qb-body");
    expect(body.tabIndex).toBe(0);
    expect(screen.getByRole("region", { name: "DynamoDB JSON" })).toBe(body);
  });
});
