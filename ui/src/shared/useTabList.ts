/**
 * What every row of tabs in the app does with the keyboard, in one place (the WAI-ARIA tabs
 * pattern, automatic activation): the row is one Tab stop, the selected tab (the first while none
 * is); ← and → move to the previous or next tab, wrapping round, Home and End to the first and the
 * last, and the tab moved to is selected and takes the focus.
 *
 * ```tsx
 * const tabs = useTabList(["form", "json"], view, setView);
 * <div role="tablist" aria-label="Model editor">
 *   <button {...tabs.tabProps("form")}>Form</button>
 *   <button {...tabs.tabProps("json")}>JSON</button>
 * </div>
 * ```
 *
 * The keys are those of a shortcut of `app/shortcuts` (`move-switch` unless told), so the shortcut
 * sheet lists them where they work. A tab's own other keys (Delete on the window's tabs) are the
 * caller's: `onKeyDown` is called with what the row did not handle.
 */
import { useRef, type KeyboardEvent } from "react";
import { matchesShortcut, type ShortcutId } from "../app/shortcuts";

export type TabProps = {
  role: "tab";
  "aria-selected": boolean;
  tabIndex: 0 | -1;
  ref: (element: HTMLElement | null) => void;
  onClick: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
};

export type TabList<K extends string> = {
  /** The props of the tab of `key`: its role, selection, place in the Tab order, click and keys. */
  tabProps: (key: K) => TabProps;
  /** Selects the tab of `key` and gives it the focus. */
  focusTab: (key: K) => void;
  /** The drawn tab of `key`. */
  element: (key: K) => HTMLElement | undefined;
};

export function useTabList<K extends string>(
  keys: readonly K[],
  selected: K | null,
  onSelect: (key: K) => void,
  {
    shortcut = "move-switch",
    onKeyDown,
  }: {
    /** The shortcut whose keys move between the tabs. */
    shortcut?: ShortcutId;
    /** Keys on a tab that the row leaves alone. */
    onKeyDown?: (event: KeyboardEvent<HTMLElement>, key: K) => void;
  } = {},
): TabList<K> {
  const refs = useRef(new Map<K, HTMLElement>());
  const stop = keys.includes(selected as K) ? selected : (keys[0] ?? null);

  const focusTab = (key: K) => {
    onSelect(key);
    // The tab is drawn already: it takes the focus now, and is selected as the row draws again.
    refs.current.get(key)?.focus();
  };

  const onTabKeyDown = (event: KeyboardEvent<HTMLElement>, key: K) => {
    const at = keys.indexOf(key);
    const moves: Record<string, number> = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: keys.length - 1 };
    const next = moves[event.key];
    if (next !== undefined && at >= 0 && matchesShortcut(shortcut, event.nativeEvent)) {
      event.preventDefault();
      const target = keys[(next + keys.length) % keys.length];
      if (target !== undefined) focusTab(target);
      return;
    }
    onKeyDown?.(event, key);
  };

  const tabProps = (key: K): TabProps => ({
    role: "tab",
    "aria-selected": key === selected,
    tabIndex: key === stop ? 0 : -1,
    ref: (element) => {
      if (element) refs.current.set(key, element);
      else refs.current.delete(key);
    },
    onClick: () => onSelect(key),
    onKeyDown: (event) => onTabKeyDown(event, key),
  });

  return { tabProps, focusTab, element: (key) => refs.current.get(key) };
}
