/**
 * Whether the start screen is shown: on the first launch, and until the user dismisses it; the
 * status bar's "Start screen" button shows it again. The choice is kept in the web view's storage,
 * like the theme.
 */
import { useCallback, useState } from "react";

const DISMISSED = "dynotable.start.dismissed";

function storedDismissed(): boolean {
  try {
    return window.localStorage.getItem(DISMISSED) === "1";
  } catch {
    return false;
  }
}

export function useStartScreen() {
  const [shown, setShown] = useState(() => !storedDismissed());
  const dismiss = useCallback(() => {
    try {
      window.localStorage.setItem(DISMISSED, "1");
    } catch {
      // Storage refused: dismissed for this session only.
    }
    setShown(false);
  }, []);
  const reopen = useCallback(() => setShown(true), []);
  return { shown, dismiss, reopen };
}
