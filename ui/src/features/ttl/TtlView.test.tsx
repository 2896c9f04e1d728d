import { StrictMode } from "react";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { ExpiringItems, Profile, TtlOverview } from "../../ipc/bindings.gen";
import { change, embedded, fakeStream, streamOn, telemetry } from "../streams/fakeStreamSource";
import { TtlView } from "./TtlView";
import { relativeTime } from "./useTtl";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

beforeAll(() => {
  for (const name of ["clientHeight", "offsetHeight"]) {
    Object.defineProperty(HTMLElement.prototype, name, {
      configurable: true,
      get(this: HTMLElement) {
        return this.classList.contains("stream-list") || this.classList.contains("ttl-items") ? 400 : 0;
      },
    });
  }
  Object.defineProperty(HTMLElement.prototype, "offsetWidth", { configurable: true, get: () => 600 });
});
afterAll(() => {
  for (const name of ["clientHeight", "offsetHeight", "offsetWidth"]) delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name];
});
afterEach(cleanup);

// The view reads the clock to say how far off a time is ("next sweep in 12 s"). It is stopped at
// one instant for every test (only Date: the timers run), so what the view says does not depend
// on how long the test took to get there.
const now = Date.UTC(2026, 2, 14, 9, 0, 0) / 1000;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(now * 1000);
});
afterEach(() => vi.useRealTimers());
const overview: TtlOverview = { table: "Telemetry", attribute: "expiresAt", embedded: true, now, nextSweepAt: now + 12, sweepIntervalSeconds: 30 };
const aws: Profile = { id: "prod", name: "Prod", color: "#f00", region: "eu-west-1", readOnly: false, connection: { kind: "aws-profile", profileName: "prod" } };

const expiring: ExpiringItems = {
  items: [
    { keys: { vehicleId: { S: "VEH#old" }, recordedAt: { S: "META" } }, expiresAt: 1000, expiryText: "1000", state: "tooOld" },
    { keys: { vehicleId: { S: "VEH#gone" }, recordedAt: { S: "META" } }, expiresAt: now - 120, expiryText: String(now - 120), state: "due" },
    { keys: { vehicleId: { S: "VEH#soon" }, recordedAt: { S: "META" } }, expiresAt: now + 600, expiryText: String(now + 600), state: "pending" },
  ],
  scanned: 10,
  withExpiry: 3,
  expired: 2,
  complete: true,
  capacityUnits: 0.5,
};

function ttlSource(over: Partial<TtlOverview> = {}) {
  const stream = fakeStream();
  const source = {
    ...stream.source,
    ttlOverview: vi.fn(async () => ({ status: "ok" as const, data: { ...overview, ...over } })),
    expiringItems: vi.fn(async () => ({ status: "ok" as const, data: expiring })),
    sweepExpired: vi.fn(async () => ({ status: "ok" as const, data: { deleted: 1, nextSweepAt: now + 30 } })),
  } satisfies Partial<Commands>;
  return { ...stream, source };
}

describe("the TTL view", () => {
  it("says time to live is off and opens Settings", async () => {
    const fake = ttlSource({ attribute: null });
    const openSettings = vi.fn();
    renderWithCommands(<TtlView profile={embedded} table={telemetry} makeChannel={fake.makeChannel} onOpenSettings={openSettings} />, fake.source);
    const off = await screen.findByTestId("ttl-off");
    expect(off.textContent).toContain("Time to live is off for Telemetry");
    fireEvent.click(within(off).getByRole("button", { name: "Open Settings" }));
    expect(openSettings).toHaveBeenCalled();
    expect(fake.source.expiringItems).not.toHaveBeenCalled();
  });

  it("on the embedded engine: lists what expires first, the next sweep, sweeps now, and shows the deletions seen", async () => {
    const fake = ttlSource();
    renderWithCommands(<TtlView profile={embedded} table={telemetry} makeChannel={fake.makeChannel} onOpenSettings={() => {}} />, fake.source);
    const items = await screen.findAllByTestId("ttl-item");
    expect(items.map((i) => i.getAttribute("data-state"))).toEqual(["tooOld", "due", "pending"]);
    for (const item of items) expect(item.getAttribute("style")).toBeNull();
    expect(items[0]!.textContent).toContain("Time to Live never deletes it");
    expect(items[1]!.textContent).toContain("expired 2 min ago: deleted at the next sweep");
    expect(items[2]!.textContent).toContain("expires in 10 min");
    expect(screen.getByTestId("ttl-summary").textContent).toContain("3 of 10 items read carry an expiry; 2 have expired.");
    expect(screen.getByTestId("ttl-next-sweep").textContent).toContain("every 30 s: next sweep in 12 s");
    expect(fake.source.expiringItems).toHaveBeenCalledWith("embedded", { table: "Telemetry", limit: 200, maxPages: 20 });

    // The deletions seen: TTL deletions only, from the oldest record kept.
    await waitFor(() => expect(fake.source.tailStream).toHaveBeenCalled());
    expect(fake.source.tailStream.mock.calls[0]![1]).toMatchObject({ start: "TRIM_HORIZON", filter: { key: {}, ttlOnly: true } });
    fake.send([change("REMOVE", { vehicleId: { S: "VEH#gone" }, recordedAt: { S: "META" } }, { vehicleId: { S: "VEH#gone" } }, null, true)]);
    const seen = await screen.findAllByTestId("stream-record");
    expect(seen[0]!.textContent).toContain("VEH#gone");
    expect(seen[0]!.querySelector('[data-testid="stream-ttl-mark"]')).not.toBeNull();
    expect(screen.getByTestId("ttl-deletions-status").textContent).toContain("1 deletion by Time to Live");

    fireEvent.click(screen.getByTestId("ttl-sweep-now"));
    expect((await screen.findByTestId("ttl-swept")).textContent).toBe("Swept: 1 expired item deleted.");
    expect(fake.source.sweepExpired).toHaveBeenCalledWith("embedded");
    await waitFor(() => expect(fake.source.expiringItems).toHaveBeenCalledTimes(2));
  });

  it("does not sweep on a read-only connection", async () => {
    const fake = ttlSource();
    renderWithCommands(<TtlView profile={{ ...embedded, readOnly: true }} table={telemetry} makeChannel={fake.makeChannel} onOpenSettings={() => {}} />, fake.source);
    expect(((await screen.findByTestId("ttl-sweep-now")) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId("ttl-next-sweep").textContent).toContain("This connection is read-only.");
  });

  it("on AWS: no sweep time, and the paid scan for expiries only on request", async () => {
    const fake = ttlSource({ embedded: false, nextSweepAt: null, sweepIntervalSeconds: null });
    renderWithCommands(<TtlView profile={aws} table={telemetry} makeChannel={fake.makeChannel} onOpenSettings={() => {}} />, fake.source);
    expect((await screen.findByTestId("ttl-next-sweep")).textContent).toContain("DynamoDB deletes expired items on its own schedule");
    expect(screen.queryByTestId("ttl-sweep-now")).toBeNull();
    const find = screen.getByTestId("ttl-find");
    expect(find.parentElement!.textContent).toContain("a Scan of the table, which you pay for");
    expect(fake.source.expiringItems).not.toHaveBeenCalled();
    fireEvent.click(find);
    expect(await screen.findAllByTestId("ttl-item")).toHaveLength(3);
  });

  it("says the deletions cannot be seen while the stream is off", async () => {
    const fake = ttlSource();
    fake.source.streamInfo.mockResolvedValue({ status: "ok", data: { ...streamOn, enabled: false, streamArn: null, viewType: null } });
    renderWithCommands(<TtlView profile={embedded} table={telemetry} makeChannel={fake.makeChannel} onOpenSettings={() => {}} />, fake.source);
    expect((await screen.findByTestId("ttl-deletions-off")).textContent).toContain("The table's stream is off");
    expect(fake.source.tailStream).not.toHaveBeenCalled();
  });

  it("keeps reading the deletions when React runs its effects twice (StrictMode, in development)", async () => {
    const fake = ttlSource();
    renderWithCommands(
      <StrictMode>
        <TtlView profile={embedded} table={telemetry} makeChannel={fake.makeChannel} onOpenSettings={() => {}} />
      </StrictMode>,
      fake.source,
    );
    await waitFor(() => expect(fake.source.tailStream).toHaveBeenCalled());
    // Whatever StrictMode ran twice, one tail is left running: the last one started.
    const started = fake.source.tailStream.mock.calls.length;
    expect(fake.source.cancelOperation).toHaveBeenCalledTimes(started - 1);
    fake.send([change("REMOVE", { vehicleId: { S: "VEH#gone" }, recordedAt: { S: "META" } }, null, null, true)]);
    expect((await screen.findAllByTestId("stream-record"))[0]!.textContent).toContain("VEH#gone");
  });

  it("writes times relative to now", () => {
    expect(relativeTime(100, 88)).toBe("in 12 s");
    expect(relativeTime(100, 220)).toBe("2 min ago");
    expect(relativeTime(100 + 7200, 100)).toBe("in 2 h");
    expect(relativeTime(100, 100 + 3 * 86400)).toBe("3 days ago");
  });
});
