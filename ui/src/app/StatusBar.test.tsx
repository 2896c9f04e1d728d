import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { StatusBar } from "./StatusBar";
import { CapacityProvider, useRecordCapacity } from "./capacity";
import type { AppInfo } from "../ipc/bindings.gen";

const ready: AppInfo = {
  version: "0.1.0",
  dataDir: "/home/u/.local/share/io.dynotable.DynoTable",
  enginePath: "/home/u/.local/share/io.dynotable.DynoTable/embedded/local.db",
  engine: { state: "ready", tableCount: 6, message: null },
};

afterEach(cleanup);

describe("StatusBar", () => {
  it("shows the version, the engine's state with its table count, and the data folder", () => {
    render(<StatusBar appInfo={{ status: "ok", data: ready }} />);
    expect(screen.getByTestId("app-version").textContent).toBe("DynoTable 0.1.0");
    expect(screen.getByTestId("engine-state").textContent).toBe("Embedded engine: ready · 6 tables");
    expect(screen.getByTestId("data-dir").textContent).toBe(`Data: ${ready.dataDir}`);
    expect(screen.getByTestId("data-dir").getAttribute("title")).toBe(ready.enginePath);
  });

  it("says one table, not one tables", () => {
    const info = { ...ready, engine: { ...ready.engine, tableCount: 1 } };
    render(<StatusBar appInfo={{ status: "ok", data: info }} />);
    expect(screen.getByTestId("engine-state").textContent).toBe("Embedded engine: ready · 1 table");
  });

  it("tells why the engine failed", () => {
    const info: AppInfo = { ...ready, engine: { state: "failed", tableCount: null, message: "disk full" } };
    render(<StatusBar appInfo={{ status: "ok", data: info }} />);
    expect(screen.getByTestId("engine-state").textContent).toBe("Embedded engine: failed · disk full");
  });

  it("says what the engine is doing while it starts", () => {
    const info: AppInfo = { ...ready, engine: { state: "starting", tableCount: null, message: "Loading the demo tables…" } };
    render(<StatusBar appInfo={{ status: "ok", data: info }} />);
    expect(screen.getByTestId("engine-state").textContent).toBe("Embedded engine: starting · Loading the demo tables…");
  });

  it("turns a typed error code into a plain title and keeps the message", () => {
    render(
      <StatusBar appInfo={{ status: "error", error: { code: "ENGINE_UNAVAILABLE", message: "The embedded engine could not start: locked" } }} />,
    );
    expect(screen.getByRole("status").textContent).toContain(
      "The embedded engine is not available: The embedded engine could not start: locked",
    );
  });

  it("shows the active connection and the capacity used since the app started", () => {
    function Reads() {
      const record = useRecordCapacity();
      return (
        <button type="button" onClick={() => (record("read", 2.5), record("write", 3))}>
          use
        </button>
      );
    }
    render(
      <CapacityProvider>
        <Reads />
        <StatusBar appInfo={{ status: "loading" }} connection="Embedded" />
      </CapacityProvider>,
    );
    expect(screen.getByTestId("capacity-used").textContent).toBe("Used since start: 0 RCU · 0 WCU");
    fireEvent.click(screen.getByRole("button", { name: "use" }));
    fireEvent.click(screen.getByRole("button", { name: "use" }));
    expect(screen.getByTestId("capacity-used").textContent).toBe("Used since start: 5 RCU · 6 WCU");
    expect(screen.getByTestId("active-connection").textContent).toBe("Embedded");
  });

  it("lists Help's entries, Updates among them, and calls each one's action", () => {
    const calls: string[] = [];
    render(
      <StatusBar
        appInfo={{ status: "ok", data: ready }}
        help={{
          onStart: () => calls.push("start"),
          onShortcuts: () => calls.push("shortcuts"),
          onModeler: () => calls.push("modeler"),
          onUpdates: () => calls.push("updates"),
        }}
      />,
    );
    for (const id of ["help-start", "help-shortcuts", "open-modeler", "help-updates"]) fireEvent.click(screen.getByTestId(id));
    expect(calls).toEqual(["start", "shortcuts", "modeler", "updates"]);
  });

  it("marks what gives way in a narrow window: the version (named in the Updates button's title) and the word Theme", () => {
    render(
      <StatusBar
        appInfo={{ status: "ok", data: ready }}
        theme={{ choice: "dark", toggle: () => {} }}
        help={{ onStart: () => {}, onShortcuts: () => {}, onUpdates: () => {} }}
      />,
    );
    // theme.css hides .app-version and .theme-word under 1,180 px, so the engine's state is read whole at 1,024.
    expect(screen.getByTestId("app-version").classList.contains("app-version")).toBe(true);
    const toggle = screen.getByTestId("theme-toggle");
    expect(toggle.querySelector(".theme-word")?.textContent).toBe("Theme: ");
    expect(toggle.textContent).toBe("◐ Theme: dark");
    expect(screen.getByTestId("help-updates").getAttribute("title")).toContain("this is 0.1.0");
  });
});
