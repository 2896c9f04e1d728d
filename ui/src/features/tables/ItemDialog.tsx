import { useEffect, useRef, useState } from "react";
import type { KeySchema } from "../../ipc/bindings.gen";
import type { Item } from "../../shared/attributeValue";
import { ItemEditor, type ItemValidation } from "../items/ItemEditor";
import { DeleteConfirm } from "../items/DeleteConfirm";
import { ItemCopy, type TextClipboard } from "../items/ItemCopy";
import { WriteEstimate } from "../costs/WriteEstimate";
import { ConfirmPanel } from "../items/ConfirmPanel";
import { describeKey } from "../../shared/itemKey";
import { useModalDialog } from "../../shared/useModalDialog";

/** What the item editor is doing. */
export type Editing =
  | { kind: "edit"; original: Item }
  | { kind: "create"; template: Item | null; duplicateOf?: Item | null }
  | { kind: "delete"; original: Item };

/**
 * The table screen's item dialog: the editor (a new item, a duplicate, or an item to change, with
 * copy, duplicate and delete beside it) or the confirmation of a delete, each with what the write
 * will cost (`WriteEstimate`): the editor's item while no problem is known of it, and nothing
 * while it has one (a new item has none until its key is filled in). The screen keeps the state
 * and sends the writes.
 *
 * A modal dialog (`useModalDialog`): the focus moves into it as it opens and stays inside it;
 * Escape closes it, first asking whether to throw away the edits when there are any; the focus
 * goes back to the row that opened it. A save refused (the confirmation that held the focus gone
 * with it) puts the focus on the sentence saying why, beside Save.
 */
export function ItemDialog({
  editing,
  profileId,
  table,
  keys,
  readOnly,
  clipboard,
  validate,
  saving,
  saveError,
  onSave,
  onRemove,
  onEdit,
  onDuplicate,
  onClose,
}: {
  editing: Editing;
  profileId: string;
  table: string;
  keys: KeySchema;
  readOnly: boolean;
  clipboard: TextClipboard | undefined;
  validate: (item: Item) => Promise<ItemValidation>;
  saving: boolean;
  saveError: { name: string; message: string } | null;
  onSave: (item: Item) => void;
  /** Delete the item of a `delete` (confirmed). */
  onRemove: () => void;
  /** Move to another state of the dialog (from the editor to the delete confirmation). */
  onEdit: (editing: Editing) => void;
  onDuplicate: (item: Item) => void;
  onClose: () => void;
}) {
  // Whether the editor holds edits not saved, and whether Escape is asking about them.
  const [dirty, setDirty] = useState(false);
  const [asking, setAsking] = useState(false);
  // The item the editor would save now, null while it has a problem: what the estimate is of.
  const [writable, setWritable] = useState<Item | null>(null);
  const askedFrom = useRef<Element | null>(null);
  const dialog = useModalDialog<HTMLDivElement>(true, {
    onEscape: () => {
      if (editing.kind !== "delete" && dirty && !readOnly) {
        askedFrom.current = document.activeElement;
        setAsking(true);
      } else onClose();
    },
  });
  // A write refused: the confirmation that had the focus is gone, and the focus with it (onto the
  // window's body). It goes to the alert that says why (the editor's, naming the refusal), or to
  // the dialog itself.
  useEffect(() => {
    const root = dialog.ref.current;
    if (saving || saveError === null || root === null || root.contains(document.activeElement)) return;
    const why = [...root.querySelectorAll<HTMLElement>('[role="alert"]')].find((alert) => alert.textContent?.includes(saveError.message));
    if (why === undefined) {
      root.focus();
      return;
    }
    if (!why.hasAttribute("tabindex")) why.tabIndex = -1;
    why.focus();
  }, [saving, saveError]);
  const keepEditing = () => {
    setAsking(false);
    const from = askedFrom.current;
    if (from instanceof HTMLElement && from.isConnected) from.focus();
    else dialog.ref.current?.focus();
  };
  const newItem = editing.kind === "create";
  return (
    <div className="dialog-backdrop">
      <div ref={dialog.ref} tabIndex={-1} role="dialog" aria-modal="true" aria-label="Item editor" className="dialog dialog-wide" onKeyDown={dialog.onKeyDown}>
        {asking && editing.kind !== "delete" && (
          <ConfirmPanel
            question={newItem ? "Discard this new item?" : `Discard your changes to item ${describeKey(keys, editing.original)}?`}
            detail={newItem ? "It has not been created; what you entered is lost." : "They have not been saved; the item in the table stays as it was."}
            confirmLabel={newItem ? "Discard it" : "Discard changes"}
            danger
            onConfirm={onClose}
            onCancel={keepEditing}
          />
        )}
        {editing.kind === "delete" ? (
          <>
            <WriteEstimate profileId={profileId} table={table} write={{ kind: "delete", existing: editing.original, newItem: null }} />
            <DeleteConfirm keys={keys} item={editing.original} onConfirm={onRemove} onCancel={onClose} busy={saving} readOnly={readOnly} />
          </>
        ) : (
          <>
            <ItemEditor
              // A new editor for a new item: duplicating from the editor starts afresh.
              key={editing.kind === "edit" ? "edit" : editing.duplicateOf ? "duplicate" : "create"}
              keys={keys}
              item={editing.kind === "edit" ? editing.original : editing.template}
              existing={editing.kind === "edit"}
              duplicateOf={editing.kind === "create" ? (editing.duplicateOf ?? null) : null}
              validate={validate}
              onSave={onSave}
              onCancel={onClose}
              readOnly={readOnly}
              saving={saving}
              saveError={saveError}
              onDirtyChange={setDirty}
              onWritableChange={setWritable}
            />
            <WriteEstimate
              profileId={profileId}
              table={table}
              write={writable === null ? null : { kind: "put", existing: editing.kind === "edit" ? editing.original : null, newItem: writable }}
            />
            {editing.kind === "edit" && (
              <div className="item-actions">
                <ItemCopy table={table} item={editing.original} clipboard={clipboard} />
                {!readOnly && (
                  <button type="button" onClick={() => onDuplicate(editing.original)}>
                    Duplicate…
                  </button>
                )}
                {!readOnly && (
                  <button type="button" className="danger" onClick={() => onEdit({ kind: "delete", original: editing.original })}>
                    Delete this item…
                  </button>
                )}
              </div>
            )}
          </>
        )}
      </div>
    </div>
  );
}
