/**
 * Mod+A selects all the text of the field or editor in focus, and nothing else: in a web view it
 * would otherwise select every word of the window (the sidebar, the tabs, the grids) when pressed
 * on a button, a row or a tab. Inside an input that holds text, a textarea or an editable element
 * (the CodeMirror editors), the key is left to them.
 */
import { useEffect } from "react";
import { matchesShortcut } from "./shortcuts";

/** Input types whose value is text the user can select. */
const TEXT_INPUTS = new Set(["text", "search", "email", "url", "tel", "password", "number", ""]);

/** Whether Select All has text of its own to select at `target`. */
export function holdsText(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLTextAreaElement) return true;
  if (target instanceof HTMLInputElement) return TEXT_INPUTS.has(target.type.toLowerCase());
  return target.isContentEditable || target.closest('[contenteditable="true"], [contenteditable=""]') !== null;
}

export function useSelectAllInFields(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || !matchesShortcut("select-all", event) || holdsText(event.target)) return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
