import { useCallback, useState } from "react";
import type { ConsumedCapacity, KeySchema } from "../../ipc/bindings.gen";
import { errorTitle, unwrap, type UiError } from "../../ipc/result";
import { useCommands } from "../../ipc/CommandsContext";
import { useRecordCapacity } from "../../app/capacity";
import type { Item } from "../../shared/attributeValue";
import { formatUnits } from "../../shared/format";
import { keyNames } from "../../shared/keySchema";
import { describeKey } from "../../shared/itemKey";
import type { ItemValidation } from "../items/ItemEditor";
import type { Editing } from "./ItemDialog";

/** The last write saved, with what it reported: the estimate is shown beside the actual. */
export type LastWrite = { existing: Item | null; newItem: Item; actual: ConsumedCapacity | null };

/**
 * One table's item writes, as the item dialog makes them: what the dialog is doing (`editing`),
 * each draft validated by the engine (`validate`), and the writes themselves. A save is a PutItem
 * conditioned on the item being as it was read (or absent, for a new item); a delete is
 * conditioned the same way, so nobody's concurrent change is overwritten silently. Each write's
 * units go to the app's capacity meter and a sentence to `notice`; the run in the query bar is
 * patched with the item as written (`replaceItem`).
 *
 * `openItem` opens a row for editing. A row of a partial run (an index, or a projection) is first
 * read whole from the table, strongly consistent, by its key: saving the part would drop every
 * attribute the run left out. When that is not possible, `onRefused` gets the sentence why.
 */
export function useItemWrites({
  profileId,
  table,
  keys,
  partialRun,
  replaceItem,
  onRefused,
}: {
  profileId: string;
  table: string;
  /** The table's key schema (null until the table is described). */
  keys: KeySchema | null;
  partialRun: boolean;
  replaceItem: (keyNames: string[], original: Item, item: Item | null) => void;
  onRefused: (sentence: string) => void;
}) {
  const source = useCommands();
  const recordCapacity = useRecordCapacity();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<{ name: string; message: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [lastWrite, setLastWrite] = useState<LastWrite | null>(null);

  // Stable across renders: the editor re-validates when this function changes.
  const validate = useCallback(
    async (item: Item): Promise<ItemValidation> => {
      const result = await unwrap(source.checkItem(profileId, table, item));
      // No size while a value is not valid (the engine cannot size it): never a size of 0 bytes.
      if (result.status === "ok") return { sizeBytes: result.data.sizeBytes, problems: result.data.problems };
      return { sizeBytes: null, problems: [{ path: "", message: result.status === "error" ? result.error.message : "Checking…" }] };
    },
    [profileId, table, source],
  );

  const names = keys === null ? [] : keyNames(keys);
  const failed = (error: UiError, item: Item) => {
    if (error.code === "CONDITION_FAILED" && editing !== null) {
      setSaveError({ name: "", message: conditionFailure(editing.kind, keys === null ? null : describeKey(keys, item)) });
    } else setSaveError({ name: error.exception ?? errorTitle(error), message: error.message });
  };

  const save = async (item: Item) => {
    if (editing === null || editing.kind === "delete") return;
    setSaving(true);
    setSaveError(null);
    const expect = editing.kind === "edit" ? { kind: "unchanged" as const, original: editing.original } : { kind: "absent" as const };
    const result = await unwrap(source.putItem(profileId, table, item, expect));
    setSaving(false);
    if (result.status === "error") {
      failed(result.error, item);
      return;
    }
    if (result.status !== "ok") return;
    const units = result.data.consumedCapacity?.total ?? 0;
    recordCapacity("write", units);
    setLastWrite({ existing: editing.kind === "edit" ? editing.original : null, newItem: item, actual: result.data.consumedCapacity });
    if (editing.kind === "edit") replaceItem(names, editing.original, item);
    setNotice(`${editing.kind === "edit" ? "Saved" : "Created"}: ${formatUnits(units)} WCU consumed.`);
    setEditing(null);
  };

  const remove = async () => {
    if (editing?.kind !== "delete") return;
    setSaving(true);
    const key = Object.fromEntries(names.map((name) => [name, editing.original[name]!]));
    const result = await unwrap(source.deleteItem(profileId, table, key, { kind: "unchanged", original: editing.original }));
    setSaving(false);
    if (result.status === "error") {
      failed(result.error, editing.original);
      return;
    }
    if (result.status !== "ok") return;
    recordCapacity("write", result.data.consumedCapacity?.total ?? 0);
    replaceItem(names, editing.original, null);
    setNotice(`Deleted: ${formatUnits(result.data.consumedCapacity?.total ?? 0)} WCU consumed.`);
    setEditing(null);
  };

  /** Opens the editor on a copy of `item`: the key to change, the rest kept. */
  const duplicate = (item: Item) => {
    setSaveError(null);
    setEditing({ kind: "create", template: item, duplicateOf: item });
  };

  /** Opens the editor on a new item, starting from `template` when there is one. */
  const create = (template: Item | null) => {
    setSaveError(null);
    setEditing({ kind: "create", template });
  };

  const openItem = async (item: Item) => {
    setSaveError(null);
    if (!partialRun) {
      setEditing({ kind: "edit", original: item });
      return;
    }
    const key = Object.fromEntries(names.flatMap((name) => (item[name] === undefined ? [] : [[name, item[name]!]])));
    if (Object.keys(key).length !== names.length) {
      onRefused(
        `This row does not carry the item's whole key (${names.join(", ")}): the projection left part of it out, so the item cannot be opened for editing.`,
      );
      return;
    }
    const result = await unwrap(source.getItem(profileId, table, key, true));
    if (result.status === "ok" && result.data.item !== null) {
      recordCapacity("read", result.data.consumedCapacity?.total ?? 0);
      setEditing({ kind: "edit", original: result.data.item });
    } else if (result.status === "ok") {
      onRefused("This item is no longer in the table: it was deleted after the query read it.");
    } else if (result.status === "error") {
      onRefused(`The whole item could not be read for editing: ${result.error.message}`);
    }
  };

  return { editing, setEditing, saving, saveError, notice, setNotice, lastWrite, validate, save, remove, duplicate, create, openItem };
}

/**
 * A write's condition that did not hold, in words: the user set no condition, the editor did (a
 * new item's key must be new; an item saved or deleted must be as it was read).
 */
export function conditionFailure(kind: Editing["kind"], key: string | null): string {
  const item = key === null ? "this item" : `item ${key}`;
  switch (kind) {
    case "create":
      return `An item with ${key ?? "this key"} already exists. Give the new item another key, or open that item to change it.`;
    case "edit":
      return `Someone changed or deleted ${item} after it was read, so saving would have overwritten that. Close the editor and read the item again to see it as it is now.`;
    case "delete":
      return `Someone changed or deleted ${item} after it was read, so it was not deleted. Read the item again to see it as it is now.`;
  }
}

/** What `useItemWrites` gives the views. */
export type ItemWrites = ReturnType<typeof useItemWrites>;
