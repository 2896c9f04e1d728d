import { vi } from "vitest";
import type { BuiltRequest, QueryPage, ReadRequest } from "../../ipc/bindings.gen";

/**
 * A stand-in for the backend's `buildReadRequest` in tests: the request written out the way the
 * builder writes it for the simple cases the tests use (`#name` only for a reserved word, a
 * `:value` per value), so the bar has something real-shaped to show.
 */
export async function fakeBuild(request: ReadRequest): Promise<{ status: "ok"; data: BuiltRequest }> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const name = (n: string) => {
    if (["status", "data", "name"].includes(n.toLowerCase())) {
      names[`#${n}`] = n;
      return `#${n}`;
    }
    return n;
  };
  const value = (hint: string, v: unknown) => {
    values[`:${hint}`] = v;
    return `:${hint}`;
  };
  let key: string | null = null;
  const k = request.keyCondition;
  if (k) {
    key = `${name(k.partitionKey)} = ${value(k.partitionKey, k.partitionValue)}`;
    const s = k.sort;
    if (s?.type === "between") key += ` AND ${name(s.name)} BETWEEN ${value(`${s.name}From`, s.low)} AND ${value(`${s.name}To`, s.high)}`;
    else if (s?.type === "beginsWith") key += ` AND begins_with(${name(s.name)}, ${value(`${s.name}Prefix`, s.prefix)})`;
    else if (s?.type === "compare") key += ` AND ${name(s.name)} ${s.op} ${value(s.name, s.value)}`;
  }
  const generated = {
    operation: request.operation,
    tableName: request.tableName,
    indexName: request.indexName ?? null,
    keyConditionExpression: key,
    filterExpression: null,
    projectionExpression: null,
    expressionAttributeNames: Object.keys(names).length > 0 ? names : null,
    expressionAttributeValues: Object.keys(values).length > 0 ? (values as BuiltRequest["request"]["expressionAttributeValues"]) : null,
    scanIndexForward: request.direction === "descending" ? false : null,
    limit: request.limit ?? null,
    consistentRead: request.consistentRead ? true : null,
    returnConsumedCapacity: request.returnConsumedCapacity ?? null,
  };
  return {
    status: "ok",
    data: {
      request: generated,
      body: JSON.stringify({ TableName: request.tableName, KeyConditionExpression: key ?? undefined }, null, 2),
      diagnostics: [],
    },
  };
}

/** Two pages of a collection: the first ends at the Limit with a LastEvaluatedKey, the second ends the range. */
export function pagedRun(first: QueryPage, second: QueryPage) {
  return vi.fn(async (_profile: string, _request: ReadRequest, start: unknown) => ({
    status: "ok" as const,
    data: start === null ? first : second,
  }));
}
