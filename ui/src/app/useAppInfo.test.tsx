import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, screen, waitFor } from "@testing-library/react";
import { useAppInfo } from "./useAppInfo";
import { renderWithCommands } from "../ipc/testCommands";
import type { AppInfo } from "../ipc/bindings.gen";

function Probe() {
  const info = useAppInfo();
  return <span data-testid="probe">{info.status === "ok" ? info.data.engine.state : info.status}</span>;
}

const base: AppInfo = {
  version: "0.1.0",
  dataDir: "/d",
  enginePath: "/d/embedded/local.db",
  engine: { state: "starting", tableCount: null, message: null },
};

afterEach(cleanup);

describe("useAppInfo", () => {
  it("asks again while the engine is starting and stops once it is ready", async () => {
    const answers: AppInfo[] = [base, { ...base, engine: { state: "ready", tableCount: 0, message: null } }];
    const source = vi.fn(async () => ({ status: "ok" as const, data: answers.shift() ?? base }));
    renderWithCommands(<Probe />, { appInfo: source });
    await waitFor(() => expect(screen.getByTestId("probe").textContent).toBe("ready"));
    expect(source).toHaveBeenCalledTimes(2);
  });

  it("reports a rejected IPC call as IPC_FAILURE", async () => {
    const source = vi.fn(() => Promise.reject(new Error("no backend")));
    function ErrorProbe() {
      const info = useAppInfo();
      return <span data-testid="probe">{info.status === "error" ? info.error.code : info.status}</span>;
    }
    renderWithCommands(<ErrorProbe />, { appInfo: source });
    await waitFor(() => expect(screen.getByTestId("probe").textContent).toBe("IPC_FAILURE"));
  });
});
