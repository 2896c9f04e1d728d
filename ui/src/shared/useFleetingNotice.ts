import { useEffect, useState } from "react";

/** Keys that are pressed on the way to another (a shortcut's modifiers): not an action of their own. */
const MODIFIERS = new Set(["Shift", "Control", "Alt", "Meta", "AltGraph", "CapsLock"]);

/**
 * A sentence on what an action just did ("Copied the item as DynamoDB JSON."), shown until the
 * next action: the next key pressed (other than a modifier) or pointer pressed anywhere in the
 * window clears it. Said once as a status, it does not stay under every view for the rest of the
 * session; an action that says it again (a second copy) shows it anew. No timer: it stays as long
 * as the user reads it.
 */
export function useFleetingNotice(): [string | null, (notice: string | null) => void] {
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    if (notice === null) return;
    const clear = (event: Event) => {
      if (event instanceof KeyboardEvent && MODIFIERS.has(event.key)) return;
      setNotice(null);
    };
    // (Captured: a handler that stops the key, as a grid's or a dialog's do, still ends it.)
    window.addEventListener("keydown", clear, true);
    window.addEventListener("pointerdown", clear, true);
    return () => {
      window.removeEventListener("keydown", clear, true);
      window.removeEventListener("pointerdown", clear, true);
    };
  }, [notice]);
  return [notice, setNotice];
}
