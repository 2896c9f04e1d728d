/**
 * What another part of the app may ask a table screen to show: a view, a grouping of its
 * Collections view, a box to bring into view, a Query to run. The start screen's steps are made
 * of these; each request carries a new `n`, so asking twice for the same thing shows it again.
 */
import type { AttributeValue, QueryInput, ReadRequest } from "../ipc/bindings.gen";

/** The views of a table screen, in the order of its tabs. */
export type ViewId = "collections" | "items" | "indexes" | "cost" | "code" | "transfer" | "settings" | "stream" | "ttl";

export type TableIntent = {
  n: number;
  view: ViewId;
  /** The Collections view regrouped by this index (`null`: the table); absent: left as it is. */
  groupBy?: string | null;
  /** The box of this partition-key value brought into view and marked. */
  reveal?: AttributeValue;
  /** A Query run as if the user had run it. */
  query?: QueryInput;
  /** A query-builder request (a modeler access pattern's) loaded into the bar and run. */
  request?: ReadRequest;
  /** The collection map shown. */
  showMap?: boolean;
  /** The Cost view's hot-partition check set to this many reads a second, and brought into view. */
  hotReadsPerSecond?: number;
};
