/**
 * The shortcut sheet: a dialog listing every shortcut from `SHORTCUTS`, grouped by where it works.
 * `useShortcutSheet` opens it with "?" (when the user is not typing in a field); Escape or the
 * Close button closes it and gives focus back to where it was (`useModalDialog`).
 */
import { useRef, useState } from "react";
import { comboKeys, isMac, SHORTCUTS, type KeyCombo, type Shortcut } from "./shortcuts";
import { useShortcut } from "./useShortcut";
import { useModalDialog } from "../shared/useModalDialog";
import "./ShortcutSheet.css";

export type ShortcutSheetProps = { open: boolean; onClose: () => void; mac?: boolean };

export function ShortcutSheet({ open, onClose, mac = isMac() }: ShortcutSheetProps) {
  const closeRef = useRef<HTMLButtonElement>(null);
  // Focus on Close (the sheet opens at its top, where the list begins), kept inside, back on close.
  const dialog = useModalDialog<HTMLDivElement>(open, { onEscape: onClose, initialFocus: closeRef });
  if (!open) return null;

  const scopes = [...new Set(SHORTCUTS.map((s) => s.scope))];
  return (
    <div className="sheet-backdrop" onClick={onClose}>
      <div
        ref={dialog.ref}
        tabIndex={-1}
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcut-sheet-title"
        className="sheet"
        onClick={(event) => event.stopPropagation()}
        onKeyDown={dialog.onKeyDown}
      >
        <h2 id="shortcut-sheet-title">Keyboard shortcuts</h2>
        {scopes.map((scope) => (
          <section key={scope} aria-label={scope}>
            <h3>{scope}</h3>
            <table className="sheet-table">
              <tbody>
                {SHORTCUTS.filter((s) => s.scope === scope).map((shortcut) => (
                  <tr key={shortcut.id} data-shortcut={shortcut.id}>
                    <th scope="row">{shortcut.description}</th>
                    <td>
                      <Combos shortcut={shortcut} mac={mac} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
        <button type="button" ref={closeRef} onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}

function Combos({ shortcut, mac }: { shortcut: Shortcut; mac: boolean }) {
  // A run of digits (tabs 1 to 9) is written as its first and last combination.
  const digitRun = shortcut.combos.length > 2 && shortcut.combos.every((c) => /^\d$/.test(c.key));
  const shown: (KeyCombo | "…")[] = digitRun ? [shortcut.combos[0]!, "…", shortcut.combos[shortcut.combos.length - 1]!] : shortcut.combos;
  return (
    <>
      {shown.map((combo, i) =>
        combo === "…" ? (
          <span key={i}> to </span>
        ) : (
          <span key={i} className="sheet-combo">
            {i > 0 && !digitRun && <span className="sheet-or">or</span>}
            {comboKeys(combo, mac).map((k, j) => (
              <kbd key={j}>{k}</kbd>
            ))}
          </span>
        ),
      )}
    </>
  );
}

/** Open state for the sheet, opened by the "?" shortcut anywhere outside text fields. */
export function useShortcutSheet(): { open: boolean; setOpen: (open: boolean) => void } {
  const [open, setOpen] = useState(false);
  useShortcut("show-shortcuts", () => setOpen(true));
  return { open, setOpen };
}
