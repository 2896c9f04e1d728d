/**
 * What every modal dialog of the app does with the keyboard, in one place: while it is open, the
 * focus moves into it (its first control, or the dialog itself), Tab and Shift+Tab go round its
 * controls and never leave it, Escape (the `close-dialog` shortcut) asks it to close, and when it
 * closes the focus goes back to where it was when it opened (the row, the button that opened it).
 *
 * ```tsx
 * const dialog = useModalDialog<HTMLDivElement>(open, { onEscape: onClose });
 * <div ref={dialog.ref} tabIndex={-1} role="dialog" aria-modal="true" onKeyDown={dialog.onKeyDown}>…</div>
 * ```
 *
 * A control inside that handles Escape itself (an inline confirmation going back) calls
 * `preventDefault()`, and the dialog leaves that Escape alone.
 *
 * The focus can fall out of an open dialog onto the window's body (the control that held it
 * removed: an inline confirmation answered). Escape then still closes the dialog on top, and Tab
 * or Shift+Tab brings the focus back into it, so the keyboard never loses the dialog.
 */
import { useEffect, useLayoutEffect, useRef, type KeyboardEvent, type RefObject } from "react";
import { isTabKey, matchesShortcut } from "../app/shortcuts";

export type ModalDialogOptions = {
  /** Escape pressed in the dialog (and not handled inside it). */
  onEscape: () => void;
  /**
   * Where the focus goes as the dialog opens: its first control (default), the dialog itself, or
   * the element of a ref.
   */
  initialFocus?: "first" | "dialog" | RefObject<HTMLElement | null>;
};

const FOCUSABLE = [
  "a[href]",
  "button:not([disabled])",
  "input:not([disabled]):not([type=hidden])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  "[contenteditable=true]",
  "[tabindex]",
].join(",");

/** The controls of `root` that Tab stops at, in document order. */
export function tabbables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.tabIndex >= 0 && !el.hidden && el.closest("[inert]") === null);
}

/** The open dialogs, the one opened last at the end. */
const openDialogs: HTMLElement[] = [];

export function useModalDialog<T extends HTMLElement>(
  open: boolean,
  { onEscape, initialFocus = "first" }: ModalDialogOptions,
): { ref: RefObject<T | null>; onKeyDown: (event: KeyboardEvent<HTMLElement>) => void } {
  const ref = useRef<T | null>(null);
  const initial = useRef(initialFocus);
  initial.current = initialFocus;
  const escape = useRef(onEscape);
  escape.current = onEscape;

  // In the commit that draws the dialog, so no frame (and no test) sees it open without focus.
  useLayoutEffect(() => {
    if (!open) return;
    const before = document.activeElement;
    const dialog = ref.current;
    if (dialog !== null) {
      const want = initial.current;
      const target = want === "dialog" ? dialog : want === "first" ? (tabbables(dialog)[0] ?? dialog) : (want.current ?? dialog);
      // (Without scrolling to it: a dialog opens at its top.)
      target.focus({ preventScroll: true });
    }
    return () => {
      if (before instanceof HTMLElement && before.isConnected) before.focus({ preventScroll: true });
    };
  }, [open]);

  // Keys pressed while the focus is outside every dialog (fallen onto the body) go to the dialog on
  // top of those on show (one in a table's tab not on show is left alone).
  useEffect(() => {
    const dialog = ref.current;
    if (!open || dialog === null) return;
    openDialogs.push(dialog);
    const onKey = (event: globalThis.KeyboardEvent) => {
      const shown = openDialogs.filter((d) => d.closest("[hidden]") === null);
      if (event.defaultPrevented || shown[shown.length - 1] !== dialog) return;
      const target = event.target;
      if (target instanceof Element && target.closest('[role="dialog"], [role="alertdialog"]') !== null) return;
      if (matchesShortcut("close-dialog", event)) {
        event.preventDefault();
        escape.current();
      } else if (isTabKey(event) && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        const stops = tabbables(dialog);
        (event.shiftKey ? stops[stops.length - 1] : stops[0])?.focus();
        if (!dialog.contains(document.activeElement)) dialog.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      const at = openDialogs.indexOf(dialog);
      if (at >= 0) openDialogs.splice(at, 1);
    };
  }, [open]);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const dialog = ref.current;
    if (dialog === null || event.defaultPrevented) return;
    if (matchesShortcut("close-dialog", event.nativeEvent)) {
      event.preventDefault();
      event.stopPropagation();
      escape.current();
      return;
    }
    if (!isTabKey(event) || event.ctrlKey || event.metaKey || event.altKey) return;
    // The focus trap: from the last control Tab goes to the first, from the first Shift+Tab to the last.
    const stops = tabbables(dialog);
    if (stops.length === 0) {
      event.preventDefault();
      dialog.focus();
      return;
    }
    const at = stops.indexOf(document.activeElement as HTMLElement);
    const first = stops[0]!;
    const last = stops[stops.length - 1]!;
    if (event.shiftKey && at <= 0) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (at === -1 || at === stops.length - 1)) {
      event.preventDefault();
      first.focus();
    }
  };

  return { ref, onKeyDown };
}
