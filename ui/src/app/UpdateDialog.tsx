/**
 * Help → Check for updates: a dialog that checks when it opens, offers the newer version with
 * its notes, and installs it on the user's word (download with progress and cancel, the
 * signature checked, then the app restarts). Escape or Close closes it, except while installing.
 */
import { useEffect } from "react";
import type { UpdateOffer } from "../ipc/bindings.gen";
import { errorTitle } from "../ipc/result";
import { useModalDialog } from "../shared/useModalDialog";
import { useCommands } from "../ipc/CommandsContext";
import { downloadText, useUpdates, type UpdateChannelFactory } from "./useUpdates";
import "./ShortcutSheet.css";

export function UpdateDialog({
  open,
  onClose,
  makeChannel,
}: {
  open: boolean;
  onClose: () => void;
  makeChannel?: UpdateChannelFactory;
}) {
  const source = useCommands();
  const updates = useUpdates(makeChannel);
  const { check, close } = updates;
  const installingNow = updates.state.step === "installing";
  // Focus on the dialog (its buttons come and go), kept inside, back where it was on close.
  const dialog = useModalDialog<HTMLDivElement>(open, {
    onEscape: () => {
      if (!installingNow) onClose();
    },
    initialFocus: "dialog",
  });
  const dialogRef = dialog.ref;

  useEffect(() => {
    if (!open) return;
    void check();
    return () => close();
  }, [open, check, close]);
  // A step's buttons come and go: keep the focus in the dialog, so Escape and Tab still work.
  const step = updates.state.step;
  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog !== null && !dialog.contains(document.activeElement)) dialog.focus();
  }, [step]);
  if (!open) return null;

  const { state } = updates;
  const installing = state.step === "installing";
  const closeUnlessInstalling = () => {
    if (!installing) onClose();
  };
  return (
    <div className="sheet-backdrop" onClick={closeUnlessInstalling}>
      <div
        ref={dialogRef}
        tabIndex={-1}
        role="dialog"
        aria-modal="true"
        aria-labelledby="update-dialog-title"
        className="sheet update-dialog"
        data-testid="update-dialog"
        onClick={(event) => event.stopPropagation()}
        onKeyDown={dialog.onKeyDown}
      >
        <h2 id="update-dialog-title">Updates</h2>
        {(state.step === "idle" || state.step === "checking") && (
          <p role="status" aria-live="polite">
            Asking DynoTable's release server for a newer version…
          </p>
        )}
        {state.step === "upToDate" && (
          <p role="status" data-testid="update-none">
            This is the newest version of DynoTable.
          </p>
        )}
        {(state.step === "offered" || state.step === "installing") && <Offer offer={state.offer} />}
        {state.step === "installing" && (
          <div data-testid="update-progress">
            {state.progress?.stage === "downloading" && state.progress.total !== null ? (
              <progress max={state.progress.total} value={state.progress.bytes ?? 0} aria-label="Download progress" />
            ) : (
              <progress aria-label="Download progress" />
            )}
            <p role="status" aria-live="polite">
              {downloadText(state.progress)}
            </p>
          </div>
        )}
        {state.step === "error" && (
          <>
            {state.offer !== null && <Offer offer={state.offer} />}
            <p role="alert" className="status-error" data-testid="update-error">
              <strong>{errorTitle(state.error.code)}.</strong> {state.error.message}
            </p>
          </>
        )}
        <div className="update-dialog-actions">
          {state.step === "offered" && (
            <button type="button" className="primary" data-testid="update-install" onClick={() => void updates.install(state.offer)}>
              Install {state.offer.version} and restart
            </button>
          )}
          {state.step === "error" && (
            <button type="button" onClick={() => void check()}>
              Check again
            </button>
          )}
          {/* Cancel once the download reports progress: the backend is waiting for it by then. */}
          {installing && state.progress?.stage === "downloading" && (
            <button type="button" data-testid="update-cancel" onClick={() => void source.cancelUpdate()}>
              Cancel the download
            </button>
          )}
          <button type="button" onClick={onClose} disabled={installing}>
            {state.step === "offered" ? "Not now" : "Close"}
          </button>
        </div>
      </div>
    </div>
  );
}

function Offer({ offer }: { offer: UpdateOffer }) {
  return (
    <div data-testid="update-offer">
      <p>
        <strong>DynoTable {offer.version}</strong> is available. This is {offer.currentVersion}
        {offer.date !== null && <>; {offer.version} was released on {offer.date.slice(0, 10)}</>}.
      </p>
      {offer.notes !== null && <p className="update-notes">{offer.notes}</p>}
      <p className="muted">
        The download is checked against DynoTable's release key before anything is installed.
      </p>
    </div>
  );
}
