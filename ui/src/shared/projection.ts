/**
 * What an index projects, in the words every view uses: "All attributes (ALL)", "Keys only
 * (KEYS_ONLY)", "Keys and total, status (INCLUDE)" — the user's words first, DynamoDB's name after.
 */
import type { Projection } from "../ipc/bindings.gen";

export function projectionText(projection: Projection): string {
  switch (projection.type) {
    case "ALL":
      return "All attributes (ALL)";
    case "KEYS_ONLY":
      return "Keys only (KEYS_ONLY)";
    case "INCLUDE":
      return `Keys and ${projection.attributes.join(", ")} (INCLUDE)`;
  }
}
