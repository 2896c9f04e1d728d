/**
 * Light and dark. The user's choice is one of "system", "light" or "dark", kept in the web view's
 * local storage; "system" follows `prefers-color-scheme` live. The resolved theme is written to
 * `<html data-theme="light|dark">`, which is all theme.css reads.
 */
import { useCallback, useEffect, useState } from "react";

export type ThemeChoice = "system" | "light" | "dark";
export type Theme = "light" | "dark";

const STORAGE_KEY = "dynotable.theme";
const ORDER: readonly ThemeChoice[] = ["system", "light", "dark"];

/** What the user chose last, or "system". */
export function storedChoice(storage: Pick<Storage, "getItem"> | null = safeStorage()): ThemeChoice {
  const value = storage?.getItem(STORAGE_KEY);
  return value === "light" || value === "dark" || value === "system" ? value : "system";
}

/** The theme a choice shows, given whether the system prefers dark. */
export function resolveTheme(choice: ThemeChoice, systemDark: boolean): Theme {
  return choice === "system" ? (systemDark ? "dark" : "light") : choice;
}

/** The choice after `choice`, for the toggle: system → light → dark → system. */
export function nextChoice(choice: ThemeChoice): ThemeChoice {
  return ORDER[(ORDER.indexOf(choice) + 1) % ORDER.length]!;
}

function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function systemQuery(): MediaQueryList | null {
  return typeof window.matchMedia === "function" ? window.matchMedia("(prefers-color-scheme: dark)") : null;
}

/** Writes the resolved theme on <html>; called before the first render too, so nothing flashes. */
export function applyTheme(choice: ThemeChoice = storedChoice()): Theme {
  const theme = resolveTheme(choice, systemQuery()?.matches ?? false);
  document.documentElement.dataset.theme = theme;
  return theme;
}

/** The theme choice, the theme it shows, and the toggle. */
export function useTheme(): { choice: ThemeChoice; theme: Theme; toggle: () => void } {
  const [choice, setChoice] = useState<ThemeChoice>(() => storedChoice());
  const [theme, setTheme] = useState<Theme>(() => applyTheme(choice));

  useEffect(() => {
    setTheme(applyTheme(choice));
    if (choice !== "system") return;
    const query = systemQuery();
    if (query === null) return;
    const follow = () => setTheme(applyTheme("system"));
    query.addEventListener("change", follow);
    return () => query.removeEventListener("change", follow);
  }, [choice]);

  const toggle = useCallback(() => {
    setChoice((current) => {
      const next = nextChoice(current);
      safeStorage()?.setItem(STORAGE_KEY, next);
      return next;
    });
  }, []);
  return { choice, theme, toggle };
}
