/**
 * Every keyboard shortcut of the app, in one list. The key handlers (`matchesShortcut`) and the
 * shortcut sheet both read this list, so the sheet cannot drift from what the keys do.
 *
 * "Mod" is Cmd on macOS and Ctrl elsewhere. Tab switching uses Ctrl on every platform, because
 * Cmd+Tab belongs to macOS itself.
 */

export type ShortcutId =
  | "open-table"
  | "move-table-match"
  | "open-table-match"
  | "leave-table-search"
  | "run-query"
  | "fold-query-bar"
  | "run-statement"
  | "next-page"
  | "edit-item"
  | "copy-item"
  | "move-selection"
  | "move-box"
  | "open-box"
  | "enter-box"
  | "whole-box"
  | "move-row"
  | "leave-box"
  | "open-row"
  | "close-tab"
  | "close-focused-tab"
  | "move-tab"
  | "move-view"
  | "check-item"
  | "toggle-value"
  | "move-map-box"
  | "move-index-item"
  | "open-map-box"
  | "next-tab"
  | "previous-tab"
  | "go-to-tab"
  | "go-to-view"
  | "show-shortcuts"
  | "toggle-theme"
  | "toggle-sidebar"
  | "close-dialog"
  | "move-switch"
  | "move-change"
  | "clear-selection"
  | "select-all";

/** One key combination. `mod` is Cmd on macOS, Ctrl elsewhere; `ctrl` is Ctrl everywhere. */
export type KeyCombo = {
  /** `KeyboardEvent.key`, compared case-insensitively for letters. */
  key: string;
  mod?: boolean;
  ctrl?: boolean;
  /** Alt (Option on macOS). Matched on the physical key (`code`) too, since Option+1 types "¡". */
  alt?: boolean;
  /**
   * `KeyboardEvent.code` accepted as well as `key`: for Alt combinations, and for Tab, which
   * WebKitGTK reports with Shift held as key "Unidentified" (its ISO_Left_Tab has no key name).
   */
  code?: string;
  shift?: boolean;
  /** Ignore Shift (for characters such as "?" that need Shift on some keyboards only). */
  anyShift?: boolean;
};

export type Shortcut = {
  id: ShortcutId;
  /** What it does, as the sheet says it. */
  description: string;
  /** Where it works, as the sheet groups it. */
  scope: "Anywhere" | "Tabs" | "Table views" | "Collections view" | "Query" | "Collection" | "Dialogs";
  combos: KeyCombo[];
};

const digits: KeyCombo[] = ["1", "2", "3", "4", "5", "6", "7", "8", "9"].map((key) => ({ key, mod: true }));

/** Alt+1 … Alt+9: the views of a table, in the order of its view strip. */
export const VIEW_SHORTCUT_COUNT = 9;
const viewDigits: KeyCombo[] = Array.from({ length: VIEW_SHORTCUT_COUNT }, (_, i) => ({ key: String(i + 1), alt: true, code: `Digit${i + 1}` }));

export const SHORTCUTS: readonly Shortcut[] = [
  { id: "open-table", description: "Open a table (search the sidebar)", scope: "Anywhere", combos: [{ key: "o", mod: true }] },
  { id: "show-shortcuts", description: "Show this list of shortcuts", scope: "Anywhere", combos: [{ key: "?", anyShift: true }] },
  { id: "toggle-theme", description: "Switch the theme: system, light, dark", scope: "Anywhere", combos: [{ key: "l", mod: true, shift: true }] },
  { id: "toggle-sidebar", description: "Collapse the sidebar to a narrow rail, or show it whole", scope: "Anywhere", combos: [{ key: "b", mod: true }] },
  { id: "close-tab", description: "Close the current tab", scope: "Tabs", combos: [{ key: "w", mod: true }] },
  {
    id: "move-tab",
    description: "In the tab strip: the previous or next tab, the first, the last",
    scope: "Tabs",
    combos: [{ key: "ArrowLeft" }, { key: "ArrowRight" }, { key: "Home" }, { key: "End" }],
  },
  { id: "close-focused-tab", description: "In the tab strip: close the focused tab", scope: "Tabs", combos: [{ key: "Delete" }] },
  { id: "next-tab", description: "Next tab", scope: "Tabs", combos: [{ key: "Tab", code: "Tab", ctrl: true }] },
  { id: "previous-tab", description: "Previous tab", scope: "Tabs", combos: [{ key: "Tab", code: "Tab", ctrl: true, shift: true }] },
  { id: "go-to-tab", description: "Go to tab 1 to 9", scope: "Tabs", combos: digits },
  {
    id: "go-to-view",
    description: "Go to a view of the table: Collections, Items, Indexes, Cost, Code & history, Import/export, Settings, Stream, TTL",
    scope: "Table views",
    combos: viewDigits,
  },
  {
    id: "move-view",
    description: "In the view strip: the previous or next view, the first, the last",
    scope: "Table views",
    combos: [{ key: "ArrowLeft" }, { key: "ArrowRight" }, { key: "Home" }, { key: "End" }],
  },
  { id: "run-query", description: "Run the query bar's Query or Scan (anywhere in a table's tab, on the views that show the bar: not Settings, Stream or TTL)", scope: "Query", combos: [{ key: "Enter", mod: true }] },
  {
    id: "fold-query-bar",
    description: "Fold the query bar to one line (the request in words, and Run), or unfold it (anywhere in a table's tab, on the views that show the bar: not Settings, Stream or TTL)",
    scope: "Query",
    combos: [{ key: "f", mod: true, shift: true }],
  },
  { id: "run-statement", description: "Run the PartiQL statement (or batch, or transaction), in a PartiQL tab", scope: "Query", combos: [{ key: "Enter", mod: true }] },
  {
    id: "next-page",
    description: "Load the next page of the Query on show (anywhere in a table's tab, on the views that show the bar: not Settings, Stream or TTL)",
    scope: "Query",
    combos: [{ key: "j", mod: true }],
  },
  { id: "edit-item", description: "Edit the selected item", scope: "Collection", combos: [{ key: "Enter" }] },
  { id: "copy-item", description: "Copy the selected item (or the focused row's) as DynamoDB JSON", scope: "Collection", combos: [{ key: "c", mod: true }] },
  { id: "check-item", description: "Check or uncheck the selected item for the bulk edit (while Bulk edit… is on in the Items view)", scope: "Collection", combos: [{ key: " " }] },
  {
    id: "toggle-value",
    description: "On a map or list value: open it, close it",
    scope: "Collection",
    combos: [{ key: "ArrowRight" }, { key: "ArrowLeft" }],
  },
  {
    id: "move-selection",
    description: "Move the selection: previous, next, a screen, first, last",
    scope: "Collection",
    combos: [{ key: "ArrowUp" }, { key: "ArrowDown" }, { key: "PageUp" }, { key: "PageDown" }, { key: "Home" }, { key: "End" }],
  },
  { id: "close-dialog", description: "Close a dialog or cancel a confirmation", scope: "Dialogs", combos: [{ key: "Escape" }] },
  {
    id: "move-switch",
    description:
      "In any other row of tabs (the code's languages, an expression's Visual/Text, PartiQL's Collections/Items, the modeler's Form/JSON, a new table's code): the previous or next, the first, the last",
    scope: "Anywhere",
    combos: [{ key: "ArrowLeft" }, { key: "ArrowRight" }, { key: "Home" }, { key: "End" }],
  },
  { id: "move-change", description: "In the Stream view's changes: the previous or next change", scope: "Table views", combos: [{ key: "ArrowUp" }, { key: "ArrowDown" }] },
  { id: "clear-selection", description: "Indexes side by side: clear the selected item", scope: "Table views", combos: [{ key: "Escape" }] },
  {
    id: "move-index-item",
    description: "Indexes side by side: the previous or next item of a column (each column is one Tab stop), the first, the last",
    scope: "Table views",
    combos: [{ key: "ArrowUp" }, { key: "ArrowDown" }, { key: "Home" }, { key: "End" }],
  },
  {
    id: "move-box",
    description: "Move to the previous or next collection box, the first, the last (the run is one Tab stop: Tab goes on to the focused box's buttons, then past the run)",
    scope: "Collections view",
    combos: [{ key: "ArrowUp" }, { key: "ArrowDown" }, { key: "PageUp" }, { key: "PageDown" }, { key: "Home" }, { key: "End" }],
  },
  { id: "open-box", description: "Open the focused box in the Items view", scope: "Collections view", combos: [{ key: "Enter" }] },
  {
    id: "move-map-box",
    description: "On the collection map: the box drawn to the left, right, above or below; the first, the last",
    scope: "Collections view",
    combos: [{ key: "ArrowLeft" }, { key: "ArrowRight" }, { key: "ArrowUp" }, { key: "ArrowDown" }, { key: "Home" }, { key: "End" }],
  },
  { id: "open-map-box", description: "On the collection map: bring the focused box into view in the run", scope: "Collections view", combos: [{ key: "Enter" }, { key: " " }] },
  { id: "enter-box", description: "Move into the focused box's rows", scope: "Collections view", combos: [{ key: "ArrowRight" }] },
  {
    id: "whole-box",
    description: "Show every item of the focused box here, or only its first rows again",
    scope: "Collections view",
    combos: [{ key: "w" }],
  },
  {
    id: "move-row",
    description: "In a box's rows: the previous or next row, the first, the last",
    scope: "Collections view",
    combos: [{ key: "ArrowUp" }, { key: "ArrowDown" }, { key: "Home" }, { key: "End" }],
  },
  { id: "leave-box", description: "From a row back to its box", scope: "Collections view", combos: [{ key: "ArrowLeft" }, { key: "Escape" }] },
  { id: "open-row", description: "Open the focused row's item in the editor", scope: "Collections view", combos: [{ key: "Enter" }] },
  // (After the others: `shortcutOf` names a key by the first shortcut that has it.)
  {
    id: "move-table-match",
    description: "In the table search: highlight the previous or next table found",
    scope: "Anywhere",
    combos: [{ key: "ArrowUp" }, { key: "ArrowDown" }],
  },
  { id: "open-table-match", description: "In the table search: open the highlighted table (the first found)", scope: "Anywhere", combos: [{ key: "Enter" }] },
  { id: "leave-table-search", description: "In the table search: clear it, then go to the tables found", scope: "Anywhere", combos: [{ key: "Escape" }] },
  {
    id: "select-all",
    description: "Select all the text of the field or editor in focus (elsewhere, nothing: not the whole window's text)",
    scope: "Anywhere",
    combos: [{ key: "a", mod: true }],
  },
];

/** Whether the app runs on macOS (where "Mod" means Cmd). */
export function isMac(): boolean {
  return typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

type KeyEventLike = Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "shiftKey" | "altKey"> & { code?: string };

function comboMatches(combo: KeyCombo, event: KeyEventLike, mac: boolean): boolean {
  const keyMatches = event.key.toLowerCase() === combo.key.toLowerCase() || (combo.code !== undefined && event.code === combo.code);
  if (!keyMatches) return false;
  if (event.altKey !== (combo.alt === true)) return false;
  const wantCtrl = combo.ctrl === true || (combo.mod === true && !mac);
  const wantMeta = combo.mod === true && mac;
  if (event.ctrlKey !== wantCtrl || event.metaKey !== wantMeta) return false;
  return combo.anyShift === true || event.shiftKey === (combo.shift === true);
}

/** Whether a key event is the given shortcut. */
export function matchesShortcut(id: ShortcutId, event: KeyEventLike, mac: boolean = isMac()): boolean {
  const shortcut = SHORTCUTS.find((s) => s.id === id);
  return shortcut !== undefined && shortcut.combos.some((combo) => comboMatches(combo, event, mac));
}

/** The shortcut a key event is, if any. */
export function shortcutOf(event: KeyEventLike, mac: boolean = isMac()): ShortcutId | null {
  for (const shortcut of SHORTCUTS) {
    if (shortcut.combos.some((combo) => comboMatches(combo, event, mac))) return shortcut.id;
  }
  return null;
}

const KEY_NAMES: Record<string, string> = {
  ArrowUp: "↑",
  ArrowDown: "↓",
  ArrowLeft: "←",
  ArrowRight: "→",
  " ": "Space",
  PageUp: "Page Up",
  PageDown: "Page Down",
  Escape: "Esc",
};

/** How a combination is written on this platform, as a list of keys ("Ctrl", "Shift", "Tab"). */
export function comboKeys(combo: KeyCombo, mac: boolean = isMac()): string[] {
  const keys: string[] = [];
  if (combo.ctrl) keys.push(mac ? "⌃" : "Ctrl");
  if (combo.mod) keys.push(mac ? "⌘" : "Ctrl");
  if (combo.alt) keys.push(mac ? "⌥" : "Alt");
  if (combo.shift) keys.push(mac ? "⇧" : "Shift");
  keys.push(KEY_NAMES[combo.key] ?? (combo.key.length === 1 ? combo.key.toUpperCase() : combo.key));
  return keys;
}

/** Whether a key event is the Tab key, Shift held or not (WebKitGTK names Shift+Tab "Unidentified"). */
export function isTabKey(event: Pick<KeyboardEvent, "key"> & { code?: string }): boolean {
  return event.key === "Tab" || event.code === "Tab";
}

/** Whether the event comes from a place where typing text (so bare-key shortcuts like "?" must not fire). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT";
}
