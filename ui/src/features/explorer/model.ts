/**
 * The explorer's data contract: the types the backend's commands send, re-exported from the
 * generated bindings so the components and the commands can never disagree.
 */
export type {
  AttributeValue,
  CapacityFigure,
  CollectionStat,
  ConsumedCapacity,
  IndexSummary,
  KeyAttribute,
  KeySchema,
  PageStop,
  QueryInput,
  QueryPage,
  ScalarType,
  SortKeyCondition,
} from "../../ipc/bindings.gen";

/** An item (or a key): attribute name → value. */
export type Item = { [key in string]: import("../../ipc/bindings.gen").AttributeValue };
