/**
 * Provisioned capacity units as typed into a field: a whole number from 1 to 40,000, DynamoDB's
 * minimum per provisioned table or GSI and its default maximum per table (docs/dynamodb-rules.md,
 * B.7, "Throughput quotas"). What is not one is never sent: the field says so instead.
 */
import { formatCount } from "./format";

export const MIN_UNITS = 1;
export const MAX_UNITS = 40_000;

export type TypedUnits = { ok: true; units: number } | { ok: false; sentence: string };

/** The units `text` holds, or the sentence that says what the field needs. */
export function typedUnits(text: string): TypedUnits {
  const trimmed = text.trim();
  const sentence = `Enter a whole number from ${formatCount(MIN_UNITS)} to ${formatCount(MAX_UNITS)}.`;
  if (!/^\d+$/.test(trimmed)) return { ok: false, sentence };
  const units = Number(trimmed);
  return units >= MIN_UNITS && units <= MAX_UNITS ? { ok: true, units } : { ok: false, sentence };
}
