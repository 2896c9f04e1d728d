/**
 * The modeler's question before it acts (create tables, replace the model): the question, the
 * action and Cancel, in place of the button that asked. The action has the focus, so Enter
 * answers yes; Escape answers no.
 */
import { useLayoutEffect, useRef, type ReactNode } from "react";
import { matchesShortcut } from "../../app/shortcuts";

export function ConfirmInline({
  children,
  action,
  onConfirm,
  onCancel,
  testId,
}: {
  /** The question. */
  children: ReactNode;
  /** The action's button label ("Create", "Replace"). */
  action: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** The action button's test id. */
  testId?: string;
}) {
  const actionRef = useRef<HTMLButtonElement>(null);
  // In the commit that draws the question, so no frame (and no test) sees it without focus.
  useLayoutEffect(() => actionRef.current?.focus(), []);
  return (
    <span
      role="group"
      aria-label="Confirm"
      onKeyDown={(event) => {
        if (matchesShortcut("close-dialog", event.nativeEvent)) {
          event.preventDefault();
          onCancel();
        }
      }}
    >
      {children}{" "}
      <button ref={actionRef} type="button" className="primary" onClick={onConfirm} data-testid={testId}>
        {action}
      </button>{" "}
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </span>
  );
}
