import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { ShareEngine } from "./ShareEngine";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

function source(overrides: Partial<Commands> = {}) {
  return {
    sharedEngine: vi.fn(async () => ({ status: "ok" as const, data: null })),
    shareEngine: vi.fn(async (port: number) => ({ status: "ok" as const, data: { url: `http://127.0.0.1:${port}`, port } })),
    stopSharing: vi.fn(async () => ({ status: "ok" as const, data: null })),
    ...overrides,
  };
}

afterEach(cleanup);

describe("ShareEngine", () => {
  it("shares on the port typed, shows the endpoint URL, and stops", async () => {
    const fake = source();
    renderWithCommands(<ShareEngine />, fake);
    fireEvent.change(screen.getByLabelText("Share on 127.0.0.1 port"), { target: { value: "8123" } });
    fireEvent.click(screen.getByRole("button", { name: "Share" }));
    await waitFor(() => expect(screen.getByTestId("shared-url").textContent).toBe("http://127.0.0.1:8123"));
    expect(fake.shareEngine).toHaveBeenCalledWith(8123);
    fireEvent.click(screen.getByRole("button", { name: "Stop sharing" }));
    await waitFor(() => expect(screen.getByRole("button", { name: "Share" })).toBeTruthy());
    expect(fake.stopSharing).toHaveBeenCalled();
  });

  it("refuses a port that is not a port, and tells a taken one in plain words", async () => {
    const fake = source({
      shareEngine: vi.fn(async () => ({
        status: "error" as const,
        error: { code: "PORT_UNAVAILABLE" as const, message: "Port 8000 on 127.0.0.1 cannot be used: in use.", exception: null },
      })),
    });
    renderWithCommands(<ShareEngine />, fake);
    fireEvent.change(screen.getByLabelText("Share on 127.0.0.1 port"), { target: { value: "70000" } });
    expect((screen.getByRole("button", { name: "Share" }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText("A port is a number from 1 to 65535.")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Share on 127.0.0.1 port"), { target: { value: "8000" } });
    fireEvent.click(screen.getByRole("button", { name: "Share" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toContain("That port cannot be used: Port 8000"));
  });
});
