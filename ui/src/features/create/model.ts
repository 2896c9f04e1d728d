/**
 * The create-table form's draft, as the user edits it (text fields stay text until sent), and
 * the `NewTable` it becomes. The rules are not here: the backend checks every draft with the
 * embedded engine's own CreateTable validation (`checkNewTable`), so the form and the engine
 * share one rule set (docs/dynamodb-rules.md, B.7 and B.8).
 */
import type { NewIndex, NewTable, ProjectionType, ScalarType } from "../../ipc/bindings.gen";
import { typedUnits } from "../../shared/capacityUnits";

export type KeyDraft = { name: string; type: ScalarType };

export type IndexDraft = {
  /** A stable id for React keys and test ids (indexes can be removed from the middle). */
  id: number;
  kind: "global" | "local";
  name: string;
  /** A GSI's partition key; an LSI always has the table's (it is not asked for). */
  partition: KeyDraft;
  sort: KeyDraft | null;
  projection: ProjectionType;
  /** INCLUDE's attributes, comma-separated as typed. */
  include: string;
};

export type BillingDraft = "PAY_PER_REQUEST" | "PROVISIONED";

export const STREAM_VIEW_TYPES = ["NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY"] as const;

export type TableDraft = {
  name: string;
  partition: KeyDraft;
  sort: KeyDraft | null;
  billing: BillingDraft;
  readUnits: string;
  writeUnits: string;
  indexes: IndexDraft[];
  /** "" for no TTL. */
  ttlAttribute: string;
  /** "" for no stream. */
  streamViewType: "" | (typeof STREAM_VIEW_TYPES)[number];
  tags: { key: string; value: string }[];
};

export function emptyDraft(): TableDraft {
  return {
    name: "",
    partition: { name: "pk", type: "S" },
    sort: null,
    billing: "PAY_PER_REQUEST",
    readUnits: "5",
    writeUnits: "5",
    indexes: [],
    ttlAttribute: "",
    streamViewType: "",
    tags: [],
  };
}

/** A capacity field's units. What is not a whole number from 1 to 40,000 (B.7) is a problem the
 * form shows beside the field and Create stays off; the backend's check of the rest of the draft
 * is then given 0 as a stand-in, and its message (which would quote that 0) is not shown. */
function units(text: string): number {
  const typed = typedUnits(text);
  return typed.ok ? typed.units : 0;
}

/** The attribute names typed into an INCLUDE field. */
export function includeList(text: string): string[] {
  return text
    .split(",")
    .map((a) => a.trim())
    .filter((a) => a !== "");
}

function indexOf(draft: TableDraft, index: IndexDraft): NewIndex {
  const partition = index.kind === "local" ? draft.partition : index.partition;
  return {
    name: index.name,
    kind: index.kind,
    keys: { partitionKey: partition, sortKey: index.sort },
    projection: { type: index.projection, attributes: index.projection === "INCLUDE" ? includeList(index.include) : [] },
  };
}

/** The table the draft describes, as `createTable` and `checkNewTable` take it. */
export function newTableOf(draft: TableDraft): NewTable {
  return {
    name: draft.name,
    keys: { partitionKey: draft.partition, sortKey: draft.sort },
    billing:
      draft.billing === "PAY_PER_REQUEST"
        ? { mode: "onDemand" }
        : { mode: "provisioned", read_units: units(draft.readUnits), write_units: units(draft.writeUnits) },
    indexes: draft.indexes.map((index) => indexOf(draft, index)),
    streamViewType: draft.streamViewType === "" ? null : draft.streamViewType,
    ttlAttribute: draft.ttlAttribute.trim() === "" ? null : draft.ttlAttribute.trim(),
    tags: draft.tags,
  };
}
