/**
 * A failed read in plain words: the sentence the bar shows first, and the field it is about (to
 * mark it), from DynamoDB's own message (kept, and shown under it for those who want it).
 */
import type { ReadRequest } from "../../ipc/bindings.gen";
import { errorTitle, type UiError } from "../../ipc/result";
import type { FieldName } from "./model";

export type ExplainedError = { sentence: string; field: FieldName | null };

const PART = { KeyConditionExpression: "key condition", FilterExpression: "filter", ProjectionExpression: "projection" } as const;
type Part = keyof typeof PART;
const FIELD_OF: Record<Part, FieldName | null> = { KeyConditionExpression: null, FilterExpression: "filter", ProjectionExpression: "projection" };

/** What went wrong with `request`, in a sentence that names the field at fault when there is one. */
export function explainRunError(error: UiError, request: ReadRequest | null): ExplainedError {
  const m = error.message;
  const part = (/Invalid (KeyConditionExpression|FilterExpression|ProjectionExpression)/.exec(m)?.[1] ?? null) as Part | null;
  const sortName = request?.keyCondition?.sort?.name ?? "the sort key";
  if (/BETWEEN operator requires upper bound to be greater than or equal to lower bound/.test(m)) {
    return part === "FilterExpression"
      ? { sentence: "A BETWEEN in the filter is reversed: its first value must not be greater than the second.", field: "filter" }
      : { sentence: `The range of ${sortName} is reversed: the first value must not be greater than the second.`, field: "sortHigh" };
  }
  if (/BETWEEN operator requires same data type/.test(m)) {
    return { sentence: `The two values of a BETWEEN in the ${part === null ? "request" : PART[part]} are of different types.`, field: part === null ? null : FIELD_OF[part] };
  }
  if (/Filter Expression can only contain non-primary key attributes/.test(m)) {
    return { sentence: "A Query's filter cannot read a key attribute: put that condition in the key fields instead.", field: "filter" };
  }
  if (/Condition parameter type does not match schema type/.test(m)) {
    return { sentence: "A key value is not of the key attribute's type.", field: null };
  }
  const missed = /Query condition missed key schema element: (\S+)/.exec(m)?.[1];
  if (missed !== undefined) return { sentence: `The key condition has no value for the key attribute ${missed}.`, field: null };
  if (/ExclusiveStartKey/.test(m)) {
    return { sentence: "The page to continue from does not belong to this request: run it again from the start.", field: null };
  }
  if (part !== null) {
    return /Syntax error/.test(m)
      ? { sentence: `DynamoDB could not read the ${PART[part]}: it has a syntax error.`, field: FIELD_OF[part] }
      : { sentence: `DynamoDB refused the ${PART[part]}.`, field: FIELD_OF[part] };
  }
  switch (error.code) {
    case "NOT_FOUND":
      return { sentence: "The table or index does not exist (any more).", field: null };
    case "THROTTLED":
      return { sentence: "DynamoDB throttled the read: try again in a moment.", field: null };
    default:
      return { sentence: `${errorTitle(error)}.`, field: null };
  }
}
