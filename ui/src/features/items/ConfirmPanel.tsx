/** An inline confirmation step (role alertdialog) that says exactly what will happen. */
import { useId, useLayoutEffect, useRef } from "react";
import { matchesShortcut } from "../../app/shortcuts";

/** An inline confirmation naming what will happen; Escape or "Back" returns, focus starts on the action. */
export function ConfirmPanel({
  question,
  detail,
  confirmLabel,
  busy = false,
  danger = false,
  onConfirm,
  onCancel,
}: {
  question: string;
  detail?: string;
  confirmLabel: string;
  busy?: boolean;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  // In the commit that draws the panel, so no frame (and no test) sees it without focus.
  useLayoutEffect(() => confirmRef.current?.focus(), []);
  return (
    <div
      role="alertdialog"
      aria-labelledby={titleId}
      className={`ie-confirm${danger ? " ie-confirm-danger" : ""}`}
      onKeyDown={(event) => {
        if (matchesShortcut("close-dialog", event.nativeEvent)) {
          event.preventDefault();
          onCancel();
        }
      }}
    >
      <p id={titleId} className="ie-confirm-question">
        {question}
      </p>
      {detail !== undefined && <p className="muted">{detail}</p>}
      <div className="ie-actions">
        <button type="button" ref={confirmRef} className={danger ? "danger" : "primary"} disabled={busy} onClick={onConfirm}>
          {busy ? "Working…" : confirmLabel}
        </button>
        <button type="button" onClick={onCancel}>
          Back
        </button>
      </div>
    </div>
  );
}
