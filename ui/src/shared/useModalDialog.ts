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
 */
import { useLayoutEffect, useRef, type KeyboardEvent, type RefObject } from "react";
import { matchesShortcut } from "../app/shortcuts";

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

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const dialog = ref.current;
    if (dialog === null || event.defaultPrevented) return;
    if (matchesShortcut("close-dialog", event.nativeEvent)) {
      event.preventDefault();
      event.stopPropagation();
      escape.current();
      return;
    }
    if (event.key !== "Tab" || event.ctrlKey || event.metaKey || event.altKey) return;
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
