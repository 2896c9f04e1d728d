import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import type { Channel } from "@tauri-apps/api/core";
import type { CommandError, UpdateOffer, UpdateProgress } from "../ipc/bindings.gen";
import { UpdateDialog } from "./UpdateDialog";
import { downloadText } from "./useUpdates";
import { renderWithCommands } from "../ipc/testCommands";

afterEach(cleanup);

const offer: UpdateOffer = {
  version: "0.2.0",
  currentVersion: "0.1.0",
  notes: "Collections of a million items open faster.",
  date: "2026-12-06T00:00:00Z",
};

type Answer<T> = { status: "ok"; data: T } | { status: "error"; error: CommandError };

function source(check: Answer<UpdateOffer | null>, install?: (report: (p: UpdateProgress) => void) => Promise<Answer<null>>) {
  let report: (p: UpdateProgress) => void = () => {};
  return {
    report: (p: UpdateProgress) => report(p),
    checkForUpdate: vi.fn(async () => check),
    installUpdate: vi.fn(async (_version: string, _channel: Channel<UpdateProgress>) => (install ? install(report) : { status: "ok" as const, data: null })),
    cancelUpdate: vi.fn(async () => ({ status: "ok" as const, data: null })),
    channel: (onMessage: (p: UpdateProgress) => void) => {
      report = onMessage;
      return {} as Channel<UpdateProgress>;
    },
  };
}

describe("UpdateDialog", () => {
  it("asks for an update only when it opens, and says when this is the newest version", async () => {
    const fake = source({ status: "ok", data: null });
    const { rerender } = renderWithCommands(<UpdateDialog open={false} onClose={() => {}} makeChannel={fake.channel} />, fake);
    expect(fake.checkForUpdate).not.toHaveBeenCalled();
    rerender(<UpdateDialog open={true} onClose={() => {}} makeChannel={fake.channel} />);
    await screen.findByTestId("update-none");
    expect(fake.checkForUpdate).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId("update-install")).toBeNull();
  });

  it("offers the newer version with its notes, and installs it with progress", async () => {
    let finish: (answer: Answer<null>) => void = () => {};
    const fake = source({ status: "ok", data: offer }, (report) => {
      report({ stage: "downloading", bytes: 3_100_000, total: 12_000_000 });
      return new Promise((resolve) => (finish = resolve));
    });
    renderWithCommands(<UpdateDialog open={true} onClose={() => {}} makeChannel={fake.channel} />, fake);
    const offered = await screen.findByTestId("update-offer");
    expect(offered.textContent).toContain("DynoTable 0.2.0 is available. This is 0.1.0; 0.2.0 was released on 2026-12-06.");
    expect(offered.textContent).toContain("Collections of a million items open faster.");

    expect(screen.queryByTestId("update-cancel")).toBeNull();
    fireEvent.click(screen.getByTestId("update-install"));
    expect(fake.installUpdate.mock.calls[0]![0]).toBe("0.2.0");
    await waitFor(() => expect(screen.getByTestId("update-progress").textContent).toContain("Downloaded 3.1 MB of 12.0 MB…"));
    expect(screen.getByRole("button", { name: "Close" })).toHaveProperty("disabled", true);

    fireEvent.click(screen.getByTestId("update-cancel"));
    expect(fake.cancelUpdate).toHaveBeenCalledTimes(1);
    finish({ status: "error", error: { code: "CANCELLED", message: "The download was cancelled. Nothing was installed.", exception: null } });
    const error = await screen.findByTestId("update-error");
    // A progress report that arrives after the answer does not bring the install back.
    act(() => fake.report({ stage: "downloading", bytes: 3_200_000, total: 12_000_000 }));
    expect(screen.getByTestId("update-error")).toBe(error);
    expect(error.textContent).toBe("Cancelled. The download was cancelled. Nothing was installed.");
    expect(screen.getByRole("button", { name: "Close" })).toHaveProperty("disabled", false);
  });

  it("shows a refused update in plain words, with a way to check again", async () => {
    const refused: CommandError = {
      code: "UPDATE_REJECTED",
      message: "The downloaded update is not signed with DynoTable's release key for the version offered, so it was not installed. Nothing was changed.",
      exception: null,
    };
    const fake = source({ status: "ok", data: offer }, async () => ({ status: "error", error: refused }));
    renderWithCommands(<UpdateDialog open={true} onClose={() => {}} makeChannel={fake.channel} />, fake);
    fireEvent.click(await screen.findByTestId("update-install"));
    const error = await screen.findByTestId("update-error");
    expect(error.textContent).toContain("The update was refused.");
    expect(error.textContent).toContain("so it was not installed");
    fireEvent.click(screen.getByRole("button", { name: "Check again" }));
    await waitFor(() => expect(fake.checkForUpdate).toHaveBeenCalledTimes(2));
  });

  it("closes with Escape, but not while installing", async () => {
    const onClose = vi.fn();
    const fake = source({ status: "ok", data: offer }, () => new Promise(() => {}));
    renderWithCommands(<UpdateDialog open={true} onClose={onClose} makeChannel={fake.channel} />, fake);
    fireEvent.click(await screen.findByTestId("update-install"));
    fireEvent.keyDown(screen.getByTestId("update-dialog"), { key: "Escape" });
    expect(onClose).not.toHaveBeenCalled();
    cleanup();

    const idle = source({ status: "ok", data: null });
    renderWithCommands(<UpdateDialog open={true} onClose={onClose} makeChannel={idle.channel} />, idle);
    await screen.findByTestId("update-none");
    fireEvent.keyDown(screen.getByTestId("update-dialog"), { key: "Escape" });
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe("downloadText", () => {
  it("says the bytes so far, of the total when known, then that it installs", () => {
    expect(downloadText(null)).toBe("Starting the download…");
    expect(downloadText({ stage: "downloading", bytes: 500_000, total: null })).toBe("Downloaded 0.5 MB…");
    expect(downloadText({ stage: "installing" })).toContain("restarts when it is done");
  });
});
