/**
 * Asked before a New table tab the user has filled in is closed (its × , Ctrl+W, Delete on the
 * tab): closing it throws the draft away, as closing the item editor with edits would. A modal
 * dialog (`useModalDialog`): the focus starts on "Keep editing", Escape keeps editing too.
 */
import { useId, useRef } from "react";
import { useModalDialog } from "../shared/useModalDialog";
import "./ShortcutSheet.css";

export function DiscardNewTable({ connection, onDiscard, onKeep }: { connection: string; onDiscard: () => void; onKeep: () => void }) {
  const keepRef = useRef<HTMLButtonElement>(null);
  const dialog = useModalDialog<HTMLDivElement>(true, { onEscape: onKeep, initialFocus: keepRef });
  const titleId = useId();
  return (
    <div className="sheet-backdrop">
      <div
        ref={dialog.ref}
        tabIndex={-1}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="sheet discard-dialog"
        data-testid="discard-new-table"
        onKeyDown={dialog.onKeyDown}
      >
        <h2 id={titleId}>Discard the new table?</h2>
        <p className="muted">It has not been created on {connection}: what you entered in its form is lost.</p>
        <div className="discard-actions">
          <button type="button" ref={keepRef} className="primary" onClick={onKeep}>
            Keep editing
          </button>
          <button type="button" className="danger" onClick={onDiscard} data-testid="discard-new-table-confirm">
            Discard it
          </button>
        </div>
      </div>
    </div>
  );
}
