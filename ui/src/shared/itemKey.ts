/**
 * An item's primary key as the editor and the confirmations talk about it: the key in words,
 * and the key rules DynamoDB applies to a written item (rules B.7 and B.9, docs/dynamodb-rules.md): every key
 * attribute is present, of the key's declared scalar type, and a string or binary key value is not
 * empty.
 */
import type { AttributeValue, KeyAttribute, KeySchema } from "../ipc/bindings.gen";
import type { Item } from "./attributeValue";
import { attributeText, typeName, typeOf } from "./attributeValue";
import { keyAttributes } from "./keySchema";
import type { TextProblem } from "./dynamoJson";

/** "vehicleId = VEH#V-7741, recordedAt = TS#2026-06-23T09:00:01Z" (missing values say so). */
export function describeKey(keys: KeySchema, item: Item): string {
  return keyAttributes(keys)
    .map((key) => {
      const value = item[key.name];
      return `${key.name} = ${value === undefined ? "(missing)" : attributeText(value)}`;
    })
    .join(", ");
}

function role(keys: KeySchema, key: KeyAttribute): string {
  return key.name === keys.partitionKey.name ? "the partition key" : "the sort key";
}

/** Whether a key value is present, typed and non-empty, as a problem per key attribute. */
export function keyProblems(keys: KeySchema, item: Item): TextProblem[] {
  const problems: TextProblem[] = [];
  for (const key of keyAttributes(keys)) {
    const value = item[key.name];
    const what = `${key.name} is ${role(keys, key)}`;
    if (value === undefined) {
      problems.push({ path: key.name, message: `${what} and is required.` });
    } else if (typeOf(value) !== key.type) {
      problems.push({ path: key.name, message: `${what}: it must be a ${typeName(key.type)} (${key.type}), not a ${typeName(typeOf(value))}.` });
    } else if (("S" in value && value.S === "") || ("B" in value && value.B === "")) {
      problems.push({ path: key.name, message: `${what}: it cannot be empty.` });
    }
  }
  return problems;
}

function sameValue(a: AttributeValue | undefined, b: AttributeValue | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** For an existing item, a problem per key attribute whose value was changed. */
export function keyChangeProblems(keys: KeySchema, original: Item, item: Item): TextProblem[] {
  return keyAttributes(keys)
    .filter((key) => !sameValue(original[key.name], item[key.name]))
    .map((key) => ({
      path: key.name,
      message: `${key.name} is part of this item's key and cannot be changed here; duplicate the item to save it under another key.`,
    }));
}
