import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { HotPartitions } from "./HotPartitions";
import type { HotPartitionReport, TrafficInput } from "../../ipc/bindings.gen";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

afterEach(cleanup);

function report(traffic: TrafficInput): HotPartitionReport {
  const uniform = traffic.spread.kind === "uniform";
  const perKey = uniform ? traffic.writesPerSecond / (traffic.spread.kind === "uniform" ? traffic.spread.keys : 1) : traffic.writesPerSecond * 0.4;
  return {
    partitionReadUnits: 3000,
    partitionWriteUnits: 1000,
    tableReadUnits: 0,
    tableWriteUnits: traffic.writesPerSecond,
    throttlingKeys: perKey > 1000 ? 1 : 0,
    keys: [
      {
        partitionValue: uniform ? null : { S: "VEH#V-7741" },
        label: uniform ? "each of 50 keys" : "VEH#V-7741",
        keys: uniform ? 50 : 1,
        share: uniform ? 0.02 : 0.4,
        readUnits: 0,
        writeUnits: perKey,
        readRatio: 0,
        writeRatio: perKey / 1000,
        throttles: perKey > 1000,
        warning: perKey >= 800,
        lines: [],
      },
    ],
    lines: [{ rule: "B.11", text: "A partition serves at most 3,000 RCU and 1,000 WCU a second" }],
  };
}

function source(): Partial<Commands> {
  return { hotPartitions: vi.fn(async (_p: string, _t: string, traffic: TrafficInput) => ({ status: "ok" as const, data: report(traffic) })) };
}

describe("HotPartitions", () => {
  it("spreads 10,000 writes a second evenly over 50 keys: 200 WCU each, nothing flagged", async () => {
    const fake = source();
    renderWithCommands(<HotPartitions profileId="embedded" table="Telemetry" />, fake);
    fireEvent.change(screen.getByLabelText("Spread over the keys"), { target: { value: "uniform" } });
    fireEvent.change(screen.getByLabelText("Writes per second"), { target: { value: "10000" } });
    await waitFor(() => expect(screen.getByTestId("hot-key").textContent).toContain("200 / 1,000"));
    expect(screen.getByTestId("hot-key").textContent).toContain("each of 50 keys");
    expect(screen.getByText("No key goes past a partition's ceiling.")).not.toBeNull();
    expect(fake.hotPartitions).toHaveBeenLastCalledWith("embedded", "Telemetry", expect.objectContaining({ writesPerSecond: 10000, spread: { kind: "uniform", keys: 50 } }));
  });

  it("flags the key that would throttle", async () => {
    const fake = source();
    renderWithCommands(<HotPartitions profileId="embedded" table="Telemetry" />, fake);
    fireEvent.change(screen.getByLabelText("Writes per second"), { target: { value: "5000" } });
    await waitFor(() => expect(screen.getByTestId("hot-key").textContent).toContain("Throttles"));
    expect(screen.getByText(/^1 key would throttle\./)).not.toBeNull();
    expect(screen.getByLabelText("Write units on VEH#V-7741")).not.toBeNull();
  });

  it("takes a read rate set from outside, shows it in its input and brings itself into view", async () => {
    const fake = source();
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    const { rerender } = renderWithCommands(<HotPartitions profileId="embedded" table="Telemetry" />, fake);
    await waitFor(() => expect(fake.hotPartitions).toHaveBeenLastCalledWith("embedded", "Telemetry", expect.objectContaining({ readsPerSecond: 1000 })));
    rerender(<HotPartitions profileId="embedded" table="Telemetry" load={{ readsPerSecond: 50_000, n: 1 }} />);
    await waitFor(() => expect(fake.hotPartitions).toHaveBeenLastCalledWith("embedded", "Telemetry", expect.objectContaining({ readsPerSecond: 50_000 })));
    expect((screen.getByLabelText("Reads per second") as HTMLInputElement).value).toBe("50000");
    expect(scrolled).toHaveBeenCalledTimes(1);
  });
});
