import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { nextChoice, resolveTheme, storedChoice, useTheme } from "./theme";

afterEach(cleanup);

/** A prefers-color-scheme the test controls. */
function fakeSystem(dark: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    get matches() {
      return dark;
    },
    addEventListener: (_: string, f: () => void) => listeners.add(f),
    removeEventListener: (_: string, f: () => void) => listeners.delete(f),
  };
  vi.stubGlobal("matchMedia", () => query);
  return {
    set(next: boolean) {
      dark = next;
      listeners.forEach((f) => f());
    },
  };
}

function Probe() {
  const { choice, theme, toggle } = useTheme();
  return (
    <button type="button" onClick={toggle}>
      {choice}/{theme}
    </button>
  );
}

describe("theme", () => {
  beforeEach(() => {
    window.localStorage.clear();
    delete document.documentElement.dataset.theme;
  });
  afterEach(() => vi.unstubAllGlobals());

  it("resolves a choice and cycles system, light, dark", () => {
    expect(resolveTheme("system", true)).toBe("dark");
    expect(resolveTheme("system", false)).toBe("light");
    expect(resolveTheme("light", true)).toBe("light");
    expect(nextChoice("system")).toBe("light");
    expect(nextChoice("light")).toBe("dark");
    expect(nextChoice("dark")).toBe("system");
    expect(storedChoice({ getItem: () => "purple" })).toBe("system");
  });

  it("follows the system by default, live, and writes the theme on <html>", () => {
    const system = fakeSystem(true);
    render(<Probe />);
    expect(screen.getByRole("button").textContent).toBe("system/dark");
    expect(document.documentElement.dataset.theme).toBe("dark");
    act(() => system.set(false));
    expect(screen.getByRole("button").textContent).toBe("system/light");
    expect(document.documentElement.dataset.theme).toBe("light");
  });

  it("keeps the user's choice across launches and stops following the system", () => {
    const system = fakeSystem(false);
    const first = render(<Probe />);
    fireEvent.click(screen.getByRole("button")); // light
    fireEvent.click(screen.getByRole("button")); // dark
    expect(screen.getByRole("button").textContent).toBe("dark/dark");
    first.unmount();
    // A new launch reads the choice back.
    render(<Probe />);
    expect(screen.getByRole("button").textContent).toBe("dark/dark");
    act(() => system.set(false));
    expect(document.documentElement.dataset.theme).toBe("dark");
  });
});
