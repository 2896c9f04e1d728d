import type { QueryInput, SortKeyCondition } from "../../ipc/bindings.gen";
import { attributeText } from "../../shared/attributeValue";

function sortText(condition: SortKeyCondition | null): string {
  if (condition === null) return "";
  const ops = { eq: "=", lt: "<", le: "<=", gt: ">", ge: ">=" } as const;
  if (condition.op === "between") return ` BETWEEN ${attributeText(condition.low)} AND ${attributeText(condition.high)}`;
  if (condition.op === "beginsWith") return ` begins_with ${attributeText(condition.value)}`;
  return ` ${ops[condition.op]} ${attributeText(condition.value)}`;
}

/** A query in one line: index, partition value, sort condition, direction, Limit, filter. */
export function describeQuery(input: QueryInput): string {
  const parts = [
    `${input.index === null ? "" : `${input.index}: `}${attributeText(input.partitionValue)}${sortText(input.sortCondition)}`,
    input.scanIndexForward ? "ascending" : "descending",
  ];
  if (input.limit !== null) parts.push(`Limit ${input.limit}`);
  if (input.consistentRead) parts.push("strongly consistent");
  if (input.filter !== null) parts.push(`filter ${input.filter}`);
  return parts.join(" · ");
}
