/**
 * PartiQL as DynamoDB speaks it, for CodeMirror's SQL highlighter: its keywords, its functions,
 * single-quoted strings, double-quoted names, `--` and `/* *\/` comments, `?` parameters.
 */
import { SQLDialect } from "@codemirror/lang-sql";

/** The statement and clause words of DynamoDB's PartiQL (Developer Guide, "PartiQL statements"). */
export const PARTIQL_KEYWORDS = [
  "SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "IN", "BETWEEN", "IS", "MISSING", "NULL", "TRUE", "FALSE",
  "INSERT", "INTO", "VALUE", "UPDATE", "SET", "REMOVE", "DELETE", "RETURNING", "ALL", "MODIFIED",
  "OLD", "NEW", "ORDER", "BY", "ASC", "DESC", "EXISTS", "LIMIT",
] as const;

/** PartiQL's functions in DynamoDB. */
export const PARTIQL_FUNCTIONS = [
  "begins_with", "contains", "attribute_type", "size", "exists", "missing", "list_append", "set_add", "set_delete",
] as const;

export const PartiQL = SQLDialect.define({
  keywords: PARTIQL_KEYWORDS.join(" ").toLowerCase(),
  builtin: PARTIQL_FUNCTIONS.join(" "),
  types: "",
  identifierQuotes: '"',
  doubleQuotedStrings: false,
  slashComments: true,
  operatorChars: "*+-%<>!=|",
  specialVar: "?",
});
