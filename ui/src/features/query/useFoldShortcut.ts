import { useEffect, useRef, type RefObject } from "react";
import { matchesShortcut } from "../../app/shortcuts";

/**
 * Mod+Shift+F folds or unfolds the query bar, from anywhere in its table's tab (the shortcut sheet
 * lists it, `app/shortcuts`). Only the bar on show answers: the other tabs stay mounted, hidden;
 * with a dialog open, the key is the dialog's.
 */
export function useFoldShortcut(bar: RefObject<HTMLElement | null>, toggle: () => void) {
  const latest = useRef(toggle);
  latest.current = toggle;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!matchesShortcut("fold-query-bar", event) || event.defaultPrevented) return;
      const element = bar.current;
      if (element === null || element.closest("[hidden]") !== null) return;
      if (document.querySelector('[role="dialog"]') !== null) return;
      event.preventDefault();
      latest.current();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [bar]);
}
