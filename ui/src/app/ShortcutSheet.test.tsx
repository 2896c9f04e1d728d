import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { ShortcutSheet, useShortcutSheet } from "./ShortcutSheet";
import { comboKeys, isTabKey, matchesShortcut, shortcutOf, SHORTCUTS } from "./shortcuts";

afterEach(cleanup);

function Host() {
  const sheet = useShortcutSheet();
  return (
    <>
      <input aria-label="filter" />
      <ShortcutSheet open={sheet.open} onClose={() => sheet.setOpen(false)} mac={false} />
    </>
  );
}

describe("ShortcutSheet", () => {
  it("opens with ? and lists every shortcut from the one list", () => {
    render(<Host />);
    expect(screen.queryByRole("dialog")).toBeNull();
    fireEvent.keyDown(document.body, { key: "?", shiftKey: true });
    const dialog = screen.getByRole("dialog", { name: "Keyboard shortcuts" });
    const rows = dialog.querySelectorAll("tr[data-shortcut]");
    expect([...rows].map((r) => r.getAttribute("data-shortcut"))).toEqual(
      ["Anywhere", "Tabs", "Table views", "Query", "Collection", "Dialogs", "Collections view"].flatMap((scope) => SHORTCUTS.filter((s) => s.scope === scope).map((s) => s.id)),
    );
    const run = within(dialog).getByRole("rowheader", { name: "Run the query bar's Query or Scan (anywhere in a table's tab, on the views that show the bar: not Settings, Stream or TTL)" }).closest("tr")!;
    expect([...run.querySelectorAll("kbd")].map((k) => k.textContent)).toEqual(["Ctrl", "Enter"]);
    const goTo = dialog.querySelector('tr[data-shortcut="go-to-tab"]')!;
    expect(goTo.textContent).toContain("Ctrl1 to Ctrl9");
    const views = dialog.querySelector('tr[data-shortcut="go-to-view"]')!;
    expect(views.textContent).toContain("Alt1 to Alt9");
    for (const id of ["open-table", "run-query", "next-page", "edit-item", "close-tab"]) {
      expect(dialog.querySelector(`tr[data-shortcut="${id}"]`)).not.toBeNull();
    }
    // The keys that work where the focus is: the tab and view strips, a row's check, a nested
    // value, the collection map.
    const keysOf = (id: string) => [...dialog.querySelectorAll(`tr[data-shortcut="${id}"] kbd`)].map((k) => k.textContent);
    expect(keysOf("close-focused-tab")).toEqual(["Delete"]);
    expect(keysOf("move-tab")).toEqual(["←", "→", "Home", "End"]);
    expect(keysOf("move-view")).toEqual(["←", "→", "Home", "End"]);
    expect(keysOf("check-item")).toEqual(["Space"]);
    expect(keysOf("toggle-value")).toEqual(["→", "←"]);
    expect(keysOf("move-map-box")).toEqual(["←", "→", "↑", "↓", "Home", "End"]);
    expect(keysOf("toggle-sidebar")).toEqual(["Ctrl", "B"]);
    // Every other row of tabs moves as the tab and view strips do.
    expect(keysOf("move-switch")).toEqual(["←", "→", "Home", "End"]);
    // Ctrl+J and Ctrl+Shift+F say where they work as Ctrl+Enter does.
    for (const id of ["run-query", "next-page", "fold-query-bar"]) {
      expect(dialog.querySelector(`tr[data-shortcut="${id}"] th`)!.textContent).toContain("on the views that show the bar: not Settings, Stream or TTL");
    }
  });

  it("does not open while typing in a field, and closes with Escape", () => {
    render(<Host />);
    fireEvent.keyDown(screen.getByLabelText("filter"), { key: "?", shiftKey: true });
    expect(screen.queryByRole("dialog")).toBeNull();
    fireEvent.keyDown(document.body, { key: "?" });
    const close = screen.getByRole("button", { name: "Close" });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(close, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});

describe("shortcuts", () => {
  const key = (k: string, mods: Partial<Record<"ctrlKey" | "metaKey" | "shiftKey" | "altKey", boolean>> = {}) => ({
    key: k,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    ...mods,
  });

  it("uses Cmd for Mod on macOS and Ctrl elsewhere", () => {
    expect(matchesShortcut("run-query", key("Enter", { metaKey: true }), true)).toBe(true);
    expect(matchesShortcut("run-query", key("Enter", { ctrlKey: true }), true)).toBe(false);
    expect(matchesShortcut("run-query", key("Enter", { ctrlKey: true }), false)).toBe(true);
    expect(comboKeys({ key: "w", mod: true }, true)).toEqual(["⌘", "W"]);
  });

  it("keeps Ctrl for tab cycling on macOS and tells Shift apart", () => {
    expect(shortcutOf(key("Tab", { ctrlKey: true }), true)).toBe("next-tab");
    expect(shortcutOf(key("Tab", { ctrlKey: true, shiftKey: true }), true)).toBe("previous-tab");
    expect(shortcutOf(key("Enter"), false)).toBe("edit-item");
    expect(shortcutOf(key("Enter", { shiftKey: true }), false)).toBeNull();
    // Ctrl+B (Cmd+B) is the sidebar's alone.
    expect(SHORTCUTS.filter((s) => s.combos.some((c) => c.key.toLowerCase() === "b")).map((s) => s.id)).toEqual(["toggle-sidebar"]);
    expect(shortcutOf(key("b", { metaKey: true }), true)).toBe("toggle-sidebar");
  });

  it("knows Shift+Tab by its physical key too: WebKitGTK names it Unidentified (ISO_Left_Tab)", () => {
    const shiftTab = { ...key("Unidentified", { ctrlKey: true, shiftKey: true }), code: "Tab" };
    expect(shortcutOf(shiftTab, false)).toBe("previous-tab");
    expect(matchesShortcut("previous-tab", shiftTab, true)).toBe(true);
    expect(shortcutOf({ ...key("Unidentified", { ctrlKey: true }), code: "Tab" }, false)).toBe("next-tab");
    expect(isTabKey({ key: "Unidentified", code: "Tab" })).toBe(true);
    expect(isTabKey({ key: "Tab", code: "" })).toBe(true);
    expect(isTabKey({ key: "Unidentified", code: "KeyA" })).toBe(false);
    // Still written as the key it is.
    expect(comboKeys(SHORTCUTS.find((s) => s.id === "previous-tab")!.combos[0]!, false)).toEqual(["Ctrl", "Shift", "Tab"]);
  });

  it("switches views with Alt+digit, by the physical key on macOS where Option+1 types ¡", () => {
    expect(shortcutOf(key("3", { altKey: true }), false)).toBe("go-to-view");
    expect(shortcutOf({ ...key("¡", { altKey: true }), code: "Digit1" }, true)).toBe("go-to-view");
    expect(shortcutOf(key("9", { altKey: true }), false)).toBe("go-to-view");
    expect(shortcutOf(key("0", { altKey: true }), false)).toBeNull();
    // Without Alt the digit is not a view shortcut (Ctrl+3 goes to the third open tab).
    expect(shortcutOf(key("3", { ctrlKey: true }), false)).toBe("go-to-tab");
    expect(comboKeys({ key: "2", alt: true }, true)).toEqual(["⌥", "2"]);
  });
});

describe("useShortcut", () => {
  it("fires Ctrl shortcuts even in a text field, and the handler it was last given", async () => {
    const { useShortcut } = await import("./useShortcut");
    const calls: string[] = [];
    function Probe({ tag }: { tag: string }) {
      useShortcut("open-table", () => calls.push(tag));
      return <input aria-label="search" />;
    }
    const { rerender } = render(<Probe tag="first" />);
    fireEvent.keyDown(screen.getByLabelText("search"), { key: "o", ctrlKey: true });
    rerender(<Probe tag="second" />);
    fireEvent.keyDown(document.body, { key: "o", ctrlKey: true });
    fireEvent.keyDown(document.body, { key: "o" });
    expect(calls).toEqual(["first", "second"]);
  });

  it("is the only place a key is named: every key handler of the UI asks the one list", () => {
    // The UI's sources, tests aside. A handler that compares `event.key` by itself would act on a
    // key the sheet does not list; one that asks `matchesShortcut` cannot.
    const sources = import.meta.glob(["../**/*.ts", "../**/*.tsx", "!../**/*.test.ts", "!../**/*.test.tsx"], {
      query: "?raw",
      import: "default",
      eager: true,
    }) as Record<string, string>;
    // (A dialog's Tab, which keeps the focus inside it, is no shortcut: `useModalDialog` asks the
    // list for Escape and names Tab itself.)
    const exempt = new Set(["../app/shortcuts.ts", "./shortcuts.ts"]);
    const comparing = Object.entries(sources).filter(([path, text]) => !exempt.has(path) && /\.key\s*===\s*"/.test(text));
    expect(Object.keys(sources).length).toBeGreaterThan(100);
    const unlisted = comparing.filter(([, text]) => !text.includes("matchesShortcut(")).map(([path]) => path);
    expect(unlisted).toEqual([]);
  });
});
