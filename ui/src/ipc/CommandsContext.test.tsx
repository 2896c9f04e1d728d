import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, render, renderHook, screen, waitFor } from "@testing-library/react";
import { CapacityProvider } from "../app/capacity";
import { CostPanel } from "../features/costs/CostPanel";
import { seedEstimate, seedQuery, sensorReadings as table } from "../features/costs/fixtures.test-data";
import { CommandsProvider, useCommands, useUnguardedCommands, type Commands } from "./CommandsContext";
import { onCredentialsNeeded, type CredentialsNeeded } from "./credentials";
import { commandsWrapper, fakeCommands } from "./testCommands";

afterEach(cleanup);


/** A call on connection `p-prod` that is refused until the user gives an MFA code. */
const refused = {
  describeTable: vi.fn(async () => ({
    status: "error" as const,
    error: { code: "MFA_REQUIRED" as const, message: "The session has expired.", exception: null },
  })),
};

describe("CommandsContext", () => {
  it("gives every component below one provider its commands: the cost panel's three sections call the fakes", async () => {
    const fake = {
      estimateQuery: vi.fn(async () => ({ status: "ok" as const, data: seedEstimate })),
      reconcileQuery: vi.fn(),
      defaultPrices: vi.fn(async () => []),
      monthlyCost: vi.fn(),
      hotPartitions: vi.fn(() => new Promise<never>(() => {})),
    };
    // The provider at the root, the panel a few levels down, as in the app.
    render(
      <CommandsProvider commands={fakeCommands(fake)}>
        <CapacityProvider>
          <main>
            <section>
              <CostPanel profileId="embedded" table={table} query={seedQuery} lastPage={null} />
            </section>
          </main>
        </CapacityProvider>
      </CommandsProvider>,
    );
    expect((await screen.findByTestId("first-page-units")).textContent).toContain("2.5 RCU");
    expect(fake.estimateQuery).toHaveBeenCalledWith("embedded", { ...seedQuery, exclusiveStartKey: null });
    expect(fake.defaultPrices).toHaveBeenCalled();
    await waitFor(() => expect(fake.hotPartitions).toHaveBeenCalledWith("embedded", "SensorReadings", expect.anything()));
  });

  it("makes a command a test did not fake fail by name", () => {
    expect(() => fakeCommands({}).describeTable).toThrow("command describeTable is not faked in this test");
    const { result } = renderHook(() => useCommands(), { wrapper: commandsWrapper({}) });
    expect(() => result.current.listTables("embedded", null)).toThrow("command listTables is not faked in this test");
  });

  it("hands every component the same guarded view of one provider's commands", () => {
    const { result } = renderHook(() => [useCommands(), useCommands()], { wrapper: commandsWrapper(refused) });
    expect(result.current[0]).toBe(result.current[1]);
  });

  it("announces an answer that needs the user through useCommands, and not through useUnguardedCommands", async () => {
    const heard: CredentialsNeeded[] = [];
    const stop = onCredentialsNeeded((need) => heard.push(need));
    const wrapper = commandsWrapper(refused);
    const unguarded = renderHook(() => useUnguardedCommands(), { wrapper }).result.current;
    await act(async () => {
      await unguarded.describeTable("p-prod", "Telemetry");
    });
    expect(heard).toEqual([]);
    const guardedView = renderHook(() => useCommands(), { wrapper }).result.current;
    await act(async () => {
      await guardedView.describeTable("p-prod", "Telemetry");
    });
    expect(heard).toEqual([{ profileId: "p-prod", code: "MFA_REQUIRED", message: "The session has expired." }]);
    stop();
  });

  it("gives the backend's generated commands without a provider", () => {
    const { result } = renderHook(() => useUnguardedCommands());
    expect(typeof (result.current as Partial<Commands>).appInfo).toBe("function");
  });
});
