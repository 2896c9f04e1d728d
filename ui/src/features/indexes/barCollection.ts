/**
 * The base-table collection the query bar names, for the Indexes view: the partition-key value
 * (as the view's field holds it, text) of a Query on the table or on one of its LSIs (an LSI
 * shares the table's partition key). A Scan, or a Query on a GSI, names no collection of the table.
 */
import type { AttributeValue, TableDescription } from "../../ipc/bindings.gen";
import { scalarText } from "../../shared/attributeValue";
import type { QueryForm } from "../query/model";
import type { QueryRun } from "../query/useQueryModel";

/** Whether a Query on `index` (null: the table) is keyed on the table's partition key. */
function onTablePartition(table: TableDescription, index: string | null): boolean {
  if (index === null) return true;
  return table.indexes.some((i) => i.name === index && i.kind === "local");
}

/** The table's collection the bar's last run Query read; null for a Scan or a GSI's Query. */
export function ranCollection(run: QueryRun | null, table: TableDescription): string | null {
  if (run?.kind !== "query") return null;
  const condition = run.request.keyCondition ?? null;
  if (condition === null || (condition.morePartition ?? []).length > 0) return null;
  if (!onTablePartition(table, run.request.indexName ?? null)) return null;
  return scalarText(condition.partitionValue as AttributeValue);
}

/** The table's collection the bar's fields name as they stand (a Query's typed partition-key value). */
export function typedCollection(form: QueryForm, table: TableDescription): string | null {
  if (form.operation !== "Query" || !onTablePartition(table, form.index)) return null;
  if (form.morePartition.some((v) => v.trim() !== "")) return null;
  const text = form.partition.trim();
  return text === "" ? null : text;
}
