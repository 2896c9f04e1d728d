/** DynamoDB JSON, exactly as on the wire. B and BS are base64. */
export type AttributeValue =
  | { S: string } | { N: string } | { B: string }
  | { SS: string[] } | { NS: string[] } | { BS: string[] }
  | { M: { [key in string]: AttributeValue } } | { L: AttributeValue[] }
  | { NULL: boolean } | { BOOL: boolean };
export type Item = { [key in string]: AttributeValue };
export type ScalarType = "S" | "N" | "B";
export type KeyAttribute = { name: string; type: ScalarType };
export type KeySchema = { partitionKey: KeyAttribute; sortKey: KeyAttribute | null };
export type IndexSummary = { name: string; kind: "global" | "local"; keys: KeySchema; projection: { type: "ALL" | "KEYS_ONLY" | "INCLUDE"; attributes: string[] } };
export type SortKeyCondition =
  | { op: "eq" | "lt" | "le" | "gt" | "ge" | "beginsWith"; value: AttributeValue }
  | { op: "between"; low: AttributeValue; high: AttributeValue };
export type QueryInput = {
  table: string; index: string | null; partitionValue: AttributeValue; sortCondition: SortKeyCondition | null;
  scanIndexForward: boolean; limit: number | null; consistentRead: boolean;
  projection: string | null; filter: string | null; exclusiveStartKey: Item | null;
};
export type CapacityFigure = { name: string; units: number };
export type ConsumedCapacity = { total: number; table: number | null; indexes: CapacityFigure[] };
/** Why a page ended: the Limit was reached, 1 MB was read, or the collection ended. */
export type PageStop = "limit" | "size" | "end";
export type QueryPage = { items: Item[]; count: number; scannedCount: number; lastEvaluatedKey: Item | null; consumedCapacity: ConsumedCapacity | null; stop: PageStop };
export type CollectionStat = { partitionValue: AttributeValue; itemCount: number; sizeBytes: number };
