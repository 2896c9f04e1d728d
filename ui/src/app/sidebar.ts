/**
 * The sidebar shown whole or collapsed to a narrow rail (at 1024×680 the table screen wants its
 * width). The user's choice is kept in the web view's local storage, as the theme's is; expanded
 * until they collapse it, at any window size (the layout has no width at which it collapses by
 * itself).
 */
import { useCallback, useState } from "react";

const STORAGE_KEY = "dynotable.sidebar";

function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Whether the user last collapsed the sidebar (anything else stored reads as expanded). */
export function storedCollapsed(storage: Pick<Storage, "getItem"> | null = safeStorage()): boolean {
  return storage?.getItem(STORAGE_KEY) === "collapsed";
}

/** Whether the sidebar is collapsed, and the ways to change it (each remembered). */
export function useSidebar(): { collapsed: boolean; setCollapsed: (collapsed: boolean) => void; toggle: () => void } {
  const [collapsed, setState] = useState(() => storedCollapsed());
  const setCollapsed = useCallback((next: boolean) => {
    safeStorage()?.setItem(STORAGE_KEY, next ? "collapsed" : "expanded");
    setState(next);
  }, []);
  const toggle = useCallback(() => {
    setState((current) => {
      safeStorage()?.setItem(STORAGE_KEY, current ? "expanded" : "collapsed");
      return !current;
    });
  }, []);
  return { collapsed, setCollapsed, toggle };
}
