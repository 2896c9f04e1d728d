import { useEffect, useRef, type RefObject } from "react";
import { shortcutOf } from "../../app/shortcuts";
import { VIEW_ORDER, type ViewId } from "./ViewTabs";

/**
 * A table screen's keys: Alt+1 … Alt+9 switch views, Ctrl+Enter runs the bar's query and Ctrl+J
 * reads its next page, from anywhere in the tab while the view on show has the bar (`barShown`; on
 * Settings, Stream and TTL the bar is hidden and both keys are left alone) (the shortcut sheet
 * lists them, `app/shortcuts`). A switch that hides the focus puts it on the new view's tab
 * (`ViewTabs`). Only the screen on show answers: the others stay mounted, hidden, under `root`.
 * The bar answers Ctrl+Enter itself when the focus is in it, and a grid answers Ctrl+J itself (it
 * marks the event handled); with a dialog open, neither runs anything.
 */
export function useTableShortcuts(
  root: RefObject<HTMLElement | null>,
  actions: { execute: () => void; loadMore: () => void; setView: (view: ViewId) => void; barShown: boolean },
) {
  // The latest actions, without adding and removing the listener at every render.
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const shortcut = shortcutOf(event);
      if (shortcut !== "go-to-view" && shortcut !== "run-query" && shortcut !== "next-page") return;
      const element = root.current;
      if (element === null || element.closest("[hidden]") !== null || event.defaultPrevented) return;
      if (shortcut === "go-to-view") {
        const digit = event.code?.startsWith("Digit") ? Number(event.code.slice(5)) : Number(event.key);
        const target = VIEW_ORDER[digit - 1];
        if (target === undefined) return;
        event.preventDefault();
        latest.current.setView(target.id);
        return;
      }
      // A Query run (or paged on) by a key while its bar is out of sight would read with a request not on show.
      if (!latest.current.barShown) return;
      if (document.querySelector('[role="dialog"]') !== null) return;
      event.preventDefault();
      if (shortcut === "next-page") latest.current.loadMore();
      else latest.current.execute();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [root]);
}
