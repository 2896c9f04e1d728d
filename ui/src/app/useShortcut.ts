/**
 * Binds one shortcut from `SHORTCUTS` to a handler for the whole window. Shortcuts with Ctrl/Cmd
 * (or Alt) work while typing in a field; bare-key ones (like "?") do not, so typing stays typing.
 */
import { useEffect, useRef } from "react";
import { isTyping, matchesShortcut, SHORTCUTS, type ShortcutId } from "./shortcuts";

export function useShortcut(id: ShortcutId, handler: (event: KeyboardEvent) => void, enabled = true): void {
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  useEffect(() => {
    if (!enabled) return;
    const shortcut = SHORTCUTS.find((s) => s.id === id);
    const modified = shortcut !== undefined && shortcut.combos.every((c) => c.mod === true || c.ctrl === true || c.alt === true);
    const onKey = (event: KeyboardEvent) => {
      if (!modified && isTyping(event.target)) return;
      if (matchesShortcut(id, event)) {
        event.preventDefault();
        handlerRef.current(event);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [id, enabled]);
}
