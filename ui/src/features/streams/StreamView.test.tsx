import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { StreamView } from "./StreamView";
import { change, embedded, fakeStream, streamOn, telemetry } from "./fakeStreamSource";
import { renderWithCommands } from "../../ipc/testCommands";

// jsdom lays nothing out: the record list gets a 400 px viewport, as a browser would give it.
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

const v7741 = { vehicleId: { S: "VEH#V-7741" }, recordedAt: { S: "META" } };

describe("the Stream view", () => {
  it("says the stream is off and opens Settings, where it is turned on", async () => {
    const fake = fakeStream({ ...streamOn, enabled: false, viewType: null, streamArn: null, shards: 0, openShards: 0 });
    const openSettings = vi.fn();
    renderWithCommands(<StreamView profile={embedded} table={telemetry} makeChannel={fake.makeChannel} onOpenSettings={openSettings} />, fake.source);
    const off = await screen.findByTestId("stream-off");
    expect(off.textContent).toContain("Telemetry has no stream turned on");
    fireEvent.click(within(off).getByRole("button", { name: "Open Settings" }));
    expect(openSettings).toHaveBeenCalledTimes(1);
    expect(fake.source.tailStream).not.toHaveBeenCalled();
  });

  it("says in a plain sentence why the stream could not be read", async () => {
    const fake = fakeStream();
    fake.source.streamInfo.mockResolvedValueOnce({
      status: "error",
      error: { code: "NETWORK", message: "Connection refused (os error 111).", exception: null },
    } as never);
    renderWithCommands(<StreamView profile={embedded} table={telemetry} makeChannel={fake.makeChannel} onOpenSettings={() => {}} />, fake.source);
    expect((await screen.findByRole("alert")).textContent).toBe(
      "The endpoint could not be reached: Connection refused (os error 111).",
    );
  });

  it("tails from LATEST: each change is a row, newest first, and a MODIFY shows its images as a diff", async () => {
    const fake = fakeStream();
    renderWithCommands(<StreamView profile={embedded} table={telemetry} makeChannel={fake.makeChannel} onOpenSettings={() => {}} />, fake.source);
    expect((await screen.findByTestId("stream-empty")).textContent).toContain("Start the tail");
    fireEvent.click(screen.getByTestId("stream-start"));
    expect(fake.source.tailStream).toHaveBeenCalledWith(
      "embedded",
      expect.objectContaining({ table: "Telemetry", start: "LATEST", filter: { key: {}, ttlOnly: false } }),
      expect.anything(),
    );
    expect((await screen.findByTestId("stream-empty")).textContent).toContain("No changes yet");
    const before = { ...v7741, speedKph: { N: "40" }, plate: { S: "KX-41" } };
    const after = { ...v7741, speedKph: { N: "99.000000000000000000000000000000000001" }, fuelPct: { N: "70" } };
    fake.send([change("INSERT", v7741, null, before), change("MODIFY", v7741, before, after)]);
    const rows = await screen.findAllByTestId("stream-record");
    expect(rows.map((r) => r.getAttribute("data-event"))).toEqual(["MODIFY", "INSERT"]);
    for (const row of rows) expect(row.getAttribute("style")).toBeNull();
    expect(rows[0]!.textContent).toContain("vehicleId = VEH#V-7741 · recordedAt = META");
    expect(screen.getByTestId("stream-status").textContent).toContain("2 read, 2 shown");

    fireEvent.click(rows[0]!);
    const diff = screen.getByTestId("stream-diff");
    expect(within(diff).getByTestId("diff-speedKph").getAttribute("data-change")).toBe("changed");
    expect(within(diff).getByTestId("diff-speedKph").textContent).toContain("99.000000000000000000000000000000000001");
    expect(within(diff).getByTestId("diff-speedKph").textContent).toContain("40");
    expect(within(diff).getByTestId("diff-fuelPct").getAttribute("data-change")).toBe("added");
    expect(within(diff).getByTestId("diff-plate").getAttribute("data-change")).toBe("removed");
    expect(within(diff).getByTestId("diff-vehicleId").getAttribute("data-change")).toBe("same");
  });

  it("marks a deletion by Time to Live as the service marks it", async () => {
    const fake = fakeStream();
    renderWithCommands(<StreamView profile={embedded} table={telemetry} makeChannel={fake.makeChannel} onOpenSettings={() => {}} />, fake.source);
    fireEvent.click(await screen.findByTestId("stream-start"));
    fake.send([change("REMOVE", v7741, { ...v7741, expiresAt: { N: "1" } }, null, true), change("REMOVE", { ...v7741, recordedAt: { S: "TS#1" } }, v7741, null)]);
    const rows = await screen.findAllByTestId("stream-record");
    expect(rows.map((r) => r.querySelector('[data-testid="stream-ttl-mark"]') !== null)).toEqual([false, true]);
    fireEvent.click(rows[1]!);
    expect(screen.getByTestId("stream-diff").textContent).toContain("Deleted by Time to Live");
  });

  it("pauses, resumes, filters by key and stops the running tail", async () => {
    const fake = fakeStream();
    renderWithCommands(<StreamView profile={embedded} table={telemetry} makeChannel={fake.makeChannel} onOpenSettings={() => {}} />, fake.source);
    fireEvent.click(await screen.findByTestId("stream-from-trim-horizon"));
    fireEvent.click(screen.getByTestId("stream-start"));
    expect(fake.source.tailStream.mock.calls[0]![1]).toMatchObject({ start: "TRIM_HORIZON" });
    const id = fake.source.tailStream.mock.calls[0]![1].tailId;
    fireEvent.click(await screen.findByTestId("stream-pause"));
    expect(fake.source.controlStreamTail).toHaveBeenLastCalledWith(id, { paused: true, filter: { key: {}, ttlOnly: false } });
    // Asked to pause; paused once the tail says so, then how many new records it holds.
    expect(screen.getByTestId("stream-status").textContent).toBe("Pausing…");
    fake.send([], { paused: true, held: 0 });
    expect(screen.getByTestId("stream-status").textContent).toContain("Paused: no new records yet.");
    fake.send([], { paused: true, held: 1 });
    expect(screen.getByTestId("stream-status").textContent).toBe("Paused: 1 new record held until you resume.");
    fake.send([], { paused: true, held: 3 });
    expect(screen.getByTestId("stream-status").textContent).toBe("Paused: 3 new records held until you resume.");
    expect(screen.queryAllByTestId("stream-record")).toHaveLength(0);
    fireEvent.click(screen.getByTestId("stream-resume"));
    expect(fake.source.controlStreamTail).toHaveBeenLastCalledWith(id, { paused: false, filter: { key: {}, ttlOnly: false } });
    expect(screen.getByTestId("stream-status").textContent).toContain("Tailing from TRIM_HORIZON");

    fake.send([change("INSERT", v7741, null, v7741), change("INSERT", { vehicleId: { S: "VEH#V-1007" }, recordedAt: { S: "META" } }, null, null)]);
    expect(await screen.findAllByTestId("stream-record")).toHaveLength(2);
    fireEvent.change(screen.getByTestId("stream-filter-vehicleId"), { target: { value: "VEH#V-1007" } });
    fireEvent.click(screen.getByTestId("stream-filter-apply"));
    expect(fake.source.controlStreamTail).toHaveBeenLastCalledWith(id, { paused: false, filter: { key: { vehicleId: { S: "VEH#V-1007" } }, ttlOnly: false } });
    // The records already kept are filtered too.
    await waitFor(() => expect(screen.getAllByTestId("stream-record")).toHaveLength(1));
    expect(screen.getByTestId("stream-record").textContent).toContain("VEH#V-1007");

    fireEvent.click(screen.getByTestId("stream-stop"));
    expect(fake.source.cancelOperation).toHaveBeenCalledWith(id);
    expect(await screen.findByTestId("stream-start")).toBeTruthy();
    expect(screen.getByTestId("stream-status").textContent).toBe("Stopped.");
  });

  it("keeps only the last records of a busy stream and says how many there were", async () => {
    const fake = fakeStream();
    renderWithCommands(<StreamView profile={embedded} table={telemetry} makeChannel={fake.makeChannel} onOpenSettings={() => {}} capacity={3} />, fake.source);
    fireEvent.click(await screen.findByTestId("stream-start"));
    const many = Array.from({ length: 5 }, (_, i) => change("INSERT", { vehicleId: { S: `VEH#${i}` }, recordedAt: { S: "META" } }, null, null));
    fake.send(many);
    const rows = await screen.findAllByTestId("stream-record");
    expect(rows.map((r) => r.textContent?.match(/VEH#\d/)?.[0])).toEqual(["VEH#4", "VEH#3", "VEH#2"]);
    expect(screen.getByTestId("stream-status").textContent).toContain("Showing the last 3 of 5 records.");
  });

  it("says when the stream was turned off and read to its end", async () => {
    const fake = fakeStream();
    renderWithCommands(<StreamView profile={embedded} table={telemetry} makeChannel={fake.makeChannel} onOpenSettings={() => {}} />, fake.source);
    fireEvent.click(await screen.findByTestId("stream-start"));
    fake.end({ end: "streamClosed", read: 0, delivered: 0 });
    await waitFor(() => expect(screen.getByTestId("stream-status").textContent).toContain("The stream was turned off"));
  });
});
