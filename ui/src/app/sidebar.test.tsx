import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { Profile } from "../ipc/bindings.gen";
import type { Commands } from "../ipc/CommandsContext";
import { renderWithCommands } from "../ipc/testCommands";
import { App } from "./App";
import { storedCollapsed, useSidebar } from "./sidebar";
import { readFileSync } from "node:fs";

afterEach(cleanup);

const embedded: Profile = { id: "embedded", name: "Embedded", color: "#4f7cff", region: "local", readOnly: false, connection: { kind: "embedded" } };

/**
 * The backend for the whole app: the connections sidebar's commands answer (one embedded engine
 * with one table); every other command is asked and never answers, so the rest of the window
 * stays as it is while loading.
 */
function backend(): Partial<Commands> {
  const answers: Partial<Commands> = {
    listProfiles: vi.fn(async () => ({ status: "ok" as const, data: [embedded] })),
    listAwsProfiles: vi.fn(async () => ({ status: "ok" as const, data: [] })),
    listRegions: vi.fn(async () => ["us-east-1"]),
    listTables: vi.fn(async () => ({ status: "ok" as const, data: { names: ["Telemetry"], nextStart: null } })),
  };
  return new Proxy(answers, {
    has: () => true,
    get: (target, name) => (name === "then" ? undefined : (Reflect.get(target, name) ?? (() => new Promise(() => {})))),
  });
}

function Probe() {
  const { collapsed, toggle } = useSidebar();
  return (
    <button type="button" onClick={toggle}>
      {collapsed ? "collapsed" : "expanded"}
    </button>
  );
}

describe("the sidebar's collapse", () => {
  beforeEach(() => window.localStorage.clear());

  it("is expanded until the user collapses it, and the choice is kept across launches", () => {
    expect(storedCollapsed({ getItem: () => null })).toBe(false);
    expect(storedCollapsed({ getItem: () => "sideways" })).toBe(false);
    const first = render(<Probe />);
    expect(screen.getByRole("button").textContent).toBe("expanded");
    fireEvent.click(screen.getByRole("button"));
    expect(screen.getByRole("button").textContent).toBe("collapsed");
    first.unmount();
    // A new launch reads the choice back.
    const second = render(<Probe />);
    expect(screen.getByRole("button").textContent).toBe("collapsed");
    fireEvent.click(screen.getByRole("button"));
    second.unmount();
    render(<Probe />);
    expect(screen.getByRole("button").textContent).toBe("expanded");
  });

  it("collapses the app's sidebar to a rail and back, by its button and by Ctrl+B, keeping what it holds", async () => {
    const { container } = renderWithCommands(<App />, backend());
    const shell = container.querySelector(".shell")!;
    const nav = screen.getByRole("navigation", { name: "Connections" });
    await waitFor(() => expect(within(nav).getByTestId("open-table-Telemetry")).toBeTruthy());
    const hide = within(nav).getByRole("button", { name: "Hide sidebar" });
    expect(hide.getAttribute("aria-expanded")).toBe("true");
    expect(hide.getAttribute("aria-keyshortcuts")).toBe("Control+B Meta+B");
    // The table search has a search typed, which the collapse keeps.
    fireEvent.change(within(nav).getByLabelText("Search tables"), { target: { value: "tele" } });

    hide.focus();
    fireEvent.click(hide);
    expect(shell.classList.contains("shell-sidebar-collapsed")).toBe(true);
    const show = within(nav).getByRole("button", { name: "Show sidebar" });
    expect(show).toBe(hide);
    expect(show.getAttribute("aria-expanded")).toBe("false");
    // The rail holds only that button: the tables are hidden (no Tab reaches them), not dropped.
    const content = document.getElementById(show.getAttribute("aria-controls")!)!;
    expect(content.hidden).toBe(true);
    expect(content.contains(within(nav).getByTestId("open-table-Telemetry"))).toBe(true);
    expect(within(nav).queryByRole("button", { name: "+ New connection" })).toBeNull();
    expect(document.activeElement).toBe(show);
    expect(window.localStorage.getItem("dynotable.sidebar")).toBe("collapsed");

    // Shown whole again by the rail's button: the search is as it was.
    fireEvent.click(show);
    expect(shell.classList.contains("shell-sidebar-collapsed")).toBe(false);
    expect(content.hidden).toBe(false);
    expect((within(nav).getByLabelText("Search tables") as HTMLInputElement).value).toBe("tele");

    // Ctrl+B anywhere, also while typing: the focus on a table that is hidden goes to the rail's button.
    within(nav).getByTestId("open-table-Telemetry").focus();
    fireEvent.keyDown(document.activeElement!, { key: "b", ctrlKey: true });
    expect(content.hidden).toBe(true);
    expect(document.activeElement).toBe(show);
    fireEvent.keyDown(within(nav).getByLabelText("Search tables"), { key: "b", ctrlKey: true });
    expect(content.hidden).toBe(false);
    expect(window.localStorage.getItem("dynotable.sidebar")).toBe("expanded");
  });

  it("starts collapsed when it was left so, and Ctrl+O (open a table) shows it whole with the focus in the table search", async () => {
    window.localStorage.setItem("dynotable.sidebar", "collapsed");
    const { container } = renderWithCommands(<App />, backend());
    expect(container.querySelector(".shell")!.classList.contains("shell-sidebar-collapsed")).toBe(true);
    const nav = screen.getByRole("navigation", { name: "Connections" });
    const show = within(nav).getByRole("button", { name: "Show sidebar" });
    await waitFor(() => expect(within(nav).getByTestId("open-table-Telemetry")).toBeTruthy());
    expect(document.getElementById(show.getAttribute("aria-controls")!)!.hidden).toBe(true);
    fireEvent.keyDown(document.body, { key: "o", ctrlKey: true });
    expect(within(nav).getByRole("button", { name: "Hide sidebar" })).toBe(show);
    expect(document.activeElement).toBe(within(nav).getByLabelText("Search tables"));
  });

  it("draws the rail and its button in the theme's colours, light and dark, never one of its own", () => {
    // (Read as files: the test run leaves CSS imports empty.)
    const themeCss = readFileSync(`${__dirname}/theme.css`, "utf8");
    const connectionsCss = readFileSync(`${__dirname}/../features/connections/connections.css`, "utf8");
    const rules = [...`${themeCss}\n${connectionsCss}`.matchAll(/([^{}]*)\{([^{}]*)\}/g)]
      .filter(([, selector]) => /sidebar-toggle|sidebar-collapsed/.test(selector!))
      .map(([, , body]) => body!);
    expect(rules.length).toBeGreaterThanOrEqual(4);
    const declared = (theme: RegExp) => new Set([...(themeCss.match(theme)?.[1] ?? "").matchAll(/(--[\w-]+):/g)].map((m) => m[1]));
    const light = declared(/:root \{([^}]*)\}/);
    const dark = declared(/:root\[data-theme="dark"\] \{([^}]*)\}/);
    for (const body of rules) {
      expect(body).not.toMatch(/#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(/i);
      for (const [, variable] of body.matchAll(/var\((--[\w-]+)\)/g)) {
        expect(light.has(variable!), `${variable} in light`).toBe(true);
        expect(dark.has(variable!), `${variable} in dark`).toBe(true);
      }
    }
  });
});
