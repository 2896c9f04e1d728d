import { describe, expect, it } from "vitest";
import { withoutRuleCitations } from "./ruleCitations";

describe("withoutRuleCitations", () => {
  it("drops a rule's number and keeps its words", () => {
    expect(withoutRuleCitations("entity Order, key pk: a key template cannot be empty (rule B.7: key values are never empty)")).toBe(
      "entity Order, key pk: a key template cannot be empty (key values are never empty)",
    );
    expect(withoutRuleCitations("a Scan reads the whole table, every page (rule B.2)")).toBe("a Scan reads the whole table, every page");
    expect(withoutRuleCitations("every item carries the table's key (rule B.7), so it needs a template for pk")).toBe(
      "every item carries the table's key, so it needs a template for pk",
    );
    expect(withoutRuleCitations("charged per item (rules B.1, B.2, B.4).")).toBe("charged per item.");
    expect(withoutRuleCitations("one of the sort-key operators (rule B.5's sort-key operators)")).toBe(
      "one of the sort-key operators (DynamoDB's sort-key operators)",
    );
    expect(withoutRuleCitations("see the limits (rule B.18.3, docs/dynamodb-rules.md)")).toBe("see the limits");
    expect(withoutRuleCitations("as rule B.11 says")).toBe("as DynamoDB's rule says");
  });

  it("leaves text without a citation alone", () => {
    const text = "DynamoDB's hash function is not public: placement on this ring is a model (an estimate), not where AWS puts a key";
    expect(withoutRuleCitations(text)).toBe(text);
  });
});
