/** The figures shown of a table follow writes to its items, wherever they were made (ipc/tableWrites.ts). */
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { Channel } from "@tauri-apps/api/core";
import type { AppInfo, CollectionStats, TableDescription, TransferProgress } from "../../ipc/bindings.gen";
import { CommandsProvider, useCommands, type Commands } from "../../ipc/CommandsContext";
import { fakeCommands, renderWithCommands } from "../../ipc/testCommands";
import { useTable } from "./useTable";
import { TransferPanel } from "./TransferPanel";
import { useAppInfo } from "../../app/useAppInfo";

afterEach(cleanup);

const described = (itemCount: number) => ({ name: "Pets", itemCount, sizeBytes: itemCount * 27 }) as unknown as TableDescription;
const counted = (itemCount: number) => ({ itemCount, sizeBytes: itemCount * 29, distinctPartitionKeys: 5, collections: [] }) as unknown as CollectionStats;
const ok = <T,>(data: T) => Promise.resolve({ status: "ok" as const, data });

/** The table's figures as a screen shows them, and a write made elsewhere with the same commands. */
function Screen({ write }: { write: (commands: Commands) => Promise<unknown> }) {
  const { table, stats } = useTable("embedded", "Pets");
  const commands = useCommands();
  return (
    <>
      <span data-testid="figures">
        {table.status === "ok" ? `${table.data.itemCount} described` : table.status} · {stats.status === "ok" ? `${stats.data.itemCount} counted` : stats.status}
      </span>
      <button type="button" onClick={() => void write(commands)}>
        Write
      </button>
    </>
  );
}

describe("a write to a table's items", () => {
  it("reads the table's description and statistics again, what is shown kept meanwhile", async () => {
    let items = 10;
    const states: string[] = [];
    const fake = {
      describeTable: vi.fn(() => ok(described(items))),
      collectionStats: vi.fn(() => ok(counted(items))),
      importItems: vi.fn(() => {
        items = 13;
        return ok({ progress: { stage: "transferring", items: 3, expectedItems: 3, capacityUnits: 3, retries: 0 }, cancelled: false, budgetReached: false });
      }),
    } as unknown as Partial<Commands>;
    renderWithCommands(<Screen write={(c) => c.importItems("embedded", "job-1", "Pets", "csv", "file-1", null, {} as Channel<TransferProgress>)} />, fake);
    await waitFor(() => expect(screen.getByTestId("figures").textContent).toBe("10 described · 10 counted"));
    const observer = new MutationObserver(() => states.push(screen.getByTestId("figures").textContent ?? ""));
    observer.observe(screen.getByTestId("figures"), { subtree: true, characterData: true, childList: true });
    fireEvent.click(screen.getByRole("button", { name: "Write" }));
    await waitFor(() => expect(screen.getByTestId("figures").textContent).toBe("13 described · 13 counted"));
    observer.disconnect();
    expect(states.some((s) => s.includes("loading"))).toBe(false);
    expect((fake.describeTable as ReturnType<typeof vi.fn>)).toHaveBeenCalledTimes(2);
  });

  it("reads the figures once for a burst of writes (a paste puts its items one by one), not once per item", async () => {
    let items = 10;
    const fake = {
      describeTable: vi.fn(() => ok(described(items))),
      collectionStats: vi.fn(() => ok(counted(items))),
      // Each put answered 20 ms later, as a real one is: the writes come in separate moments.
      putItem: vi.fn(
        () =>
          new Promise((resolve) =>
            setTimeout(() => {
              items += 1;
              resolve({ status: "ok" as const, data: null });
            }, 20),
          ),
      ),
    } as unknown as Partial<Commands>;
    const putFive = async (c: Commands) => {
      for (let i = 0; i < 5; i += 1) await c.putItem("embedded", "Pets", {}, { kind: "anything" } as never);
    };
    renderWithCommands(<Screen write={putFive} />, fake);
    await waitFor(() => expect(screen.getByTestId("figures").textContent).toBe("10 described · 10 counted"));
    fireEvent.click(screen.getByRole("button", { name: "Write" }));
    await waitFor(() => expect(screen.getByTestId("figures").textContent).toBe("15 described · 15 counted"), { timeout: 5000 });
    expect(fake.putItem).toHaveBeenCalledTimes(5);
    expect(fake.describeTable).toHaveBeenCalledTimes(2);
    expect(fake.collectionStats).toHaveBeenCalledTimes(2);
  });

  it("leaves other tables, and refused writes, alone", async () => {
    const fake = {
      describeTable: vi.fn(() => ok(described(10))),
      collectionStats: vi.fn(() => ok(counted(10))),
      putItem: vi.fn((_: string, table: string) =>
        table === "Music" ? ok({}) : Promise.resolve({ status: "error" as const, error: { code: "CONDITION_FAILED", message: "no", exception: null } }),
      ),
    };
    let target = "Music";
    renderWithCommands(<Screen write={(c) => c.putItem("embedded", target, {}, { kind: "none" } as never)} />, fake as unknown as Partial<Commands>);
    await waitFor(() => expect(screen.getByTestId("figures").textContent).toBe("10 described · 10 counted"));
    fireEvent.click(screen.getByRole("button", { name: "Write" }));
    target = "Pets";
    fireEvent.click(screen.getByRole("button", { name: "Write" }));
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.describeTable).toHaveBeenCalledTimes(1);
  });

  it("asks the export's estimate again after an import, so its item count follows", async () => {
    let items = 10;
    const estimate = () => ({ items, bytes: items * 28, pages: 1, capacityUnits: 0.5, approximate: false, sizeUnknown: false, lines: [] });
    const fake = {
      estimateExport: vi.fn(() => ok(estimate())),
      chooseFile: vi.fn(() => ok({ handle: "file-1", name: "pets.csv", replaces: false })),
      estimateImportFile: vi.fn(() => ok({ items: 3, requests: 1, capacityUnits: 3, tableUnits: 3, indexes: [], exact: true, lines: [] })),
      importItems: vi.fn(() => {
        items = 13;
        return ok({ progress: { stage: "transferring", items: 3, expectedItems: 3, capacityUnits: 3, retries: 0 }, cancelled: false, budgetReached: false });
      }),
    };
    render(
      <CommandsProvider commands={fakeCommands(fake as unknown as Partial<Commands>)}>
        <TransferPanel profileId="embedded" table="Pets" query={null} readOnly={false} makeChannel={() => ({}) as Channel<TransferProgress>} />
      </CommandsProvider>,
    );
    await waitFor(() => expect(screen.getByTestId("export-estimate").textContent).toContain("about 10 items"));
    fireEvent.click(screen.getByRole("button", { name: "Choose a file to import…" }));
    await waitFor(() => expect(screen.getByTestId("transfer-files").textContent).toContain("pets.csv"));
    fireEvent.click(screen.getByRole("button", { name: "Estimate the import" }));
    await screen.findByTestId("import-estimate");
    fireEvent.click(screen.getByRole("button", { name: "Import" }));
    await waitFor(() => expect(screen.getByTestId("export-estimate").textContent).toContain("about 13 items"));
    expect(screen.getByTestId("transfer-done").textContent).toContain("Imported 3 items");
  });
});

describe("the app's information", () => {
  it("is asked again when tables were created or deleted, so the engine's table count follows", async () => {
    let tables = 6;
    const appInfo = vi.fn(() => ok({ version: "0.1.0", dataDir: "/d", enginePath: "/d/e", engine: { state: "ready", tableCount: tables, message: null } } as AppInfo));
    function Probe({ reload }: { reload: number }) {
      const info = useAppInfo(reload);
      return <span data-testid="probe">{info.status === "ok" ? `${info.data.engine.tableCount} tables` : info.status}</span>;
    }
    const { rerender } = renderWithCommands(<Probe reload={0} />, { appInfo });
    await waitFor(() => expect(screen.getByTestId("probe").textContent).toBe("6 tables"));
    tables = 7;
    rerender(<Probe reload={1} />);
    await waitFor(() => expect(screen.getByTestId("probe").textContent).toBe("7 tables"));
  });
});
