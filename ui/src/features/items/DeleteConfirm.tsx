/** The confirmation before deleting an item, naming its key; read-only connections cannot delete. */
import type { KeySchema } from "../../ipc/bindings.gen";
import type { Item } from "../../shared/attributeValue";
import { ConfirmPanel } from "./ConfirmPanel";
import { describeKey } from "../../shared/itemKey";
import "./ItemEditor.css";

export type DeleteConfirmProps = {
  keys: KeySchema;
  item: Item;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  readOnly?: boolean;
};

/** Asks before deleting an item, naming its key. */
export function DeleteConfirm({
  keys,
  item,
  onConfirm,
  onCancel,
  busy = false,
  readOnly = false,
}: DeleteConfirmProps) {
  if (readOnly) {
    return (
      <div role="alertdialog" aria-label="Delete item" className="ie-confirm">
        <p className="ie-readonly">This connection is read-only: items cannot be deleted.</p>
        <button type="button" onClick={onCancel}>
          Back
        </button>
      </div>
    );
  }
  return (
    <ConfirmPanel
      question={`Delete item ${describeKey(keys, item)}?`}
      detail="The item is removed from the table; this cannot be undone."
      confirmLabel="Delete"
      danger
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}

