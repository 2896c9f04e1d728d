/**
 * Completion in the PartiQL editor: table names after FROM, INTO, UPDATE (and DELETE FROM),
 * attribute names elsewhere — the keys of the tables the statement names and every attribute seen
 * in results — and the keywords. A name that must be quoted (a reserved word, or not a plain
 * identifier) is inserted with its double quotes, so the user never has to know the list.
 */
import type { Completion, CompletionContext, CompletionResult, CompletionSource } from "@codemirror/autocomplete";
import { PARTIQL_FUNCTIONS, PARTIQL_KEYWORDS } from "./dialect";

/** What completion knows, read at the moment it is asked (it grows as tables load and results come). */
export type CompletionCatalog = {
  tables: () => readonly string[];
  /** The attribute names known for a table (keys first), or every name seen when the table is unknown. */
  attributes: (table: string | null) => readonly string[];
  /** DynamoDB's reserved words, upper case. */
  reserved: () => ReadonlySet<string>;
};

const PLAIN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const KEYWORDS = new Set<string>(PARTIQL_KEYWORDS);

/** A name as it must be written in a statement: bare when it can be, else in double quotes. */
export function quoteName(name: string, reserved: ReadonlySet<string>): string {
  const upper = name.toUpperCase();
  if (PLAIN.test(name) && !reserved.has(upper) && !KEYWORDS.has(upper)) return name;
  return `"${name.replace(/"/g, '""')}"`;
}

/** The tables a statement names (after FROM, INTO, UPDATE), first one first. */
export function tablesIn(text: string): string[] {
  const found: string[] = [];
  const pattern = /\b(?:from|into|update)\s+("((?:[^"]|"")*)"|[A-Za-z_][\w.-]*)/gi;
  for (const m of text.matchAll(pattern)) {
    found.push(m[2] !== undefined ? m[2].replace(/""/g, '"') : (m[1] ?? ""));
  }
  return found;
}

/** The completion source of the editor over a catalog. */
export function partiqlCompletion(catalog: CompletionCatalog): CompletionSource {
  return (context: CompletionContext): CompletionResult | null => {
    const word = context.matchBefore(/"?[\w#.-]*/);
    if (word === null) return null;
    if (word.from === word.to && !context.explicit) return null;
    const before = context.state.sliceDoc(0, word.from);
    const wantsTable = /\b(from|into|update)\s+$/i.test(before);
    const reserved = catalog.reserved();
    const options: Completion[] = [];
    if (wantsTable) {
      for (const table of catalog.tables()) {
        options.push({ label: table, apply: quoteName(table, reserved), type: "class", detail: "table", boost: 2 });
      }
    } else {
      const statement = context.state.doc.toString();
      const named = tablesIn(statement);
      const seen = new Set<string>();
      for (const table of named.length === 0 ? [null] : named) {
        for (const name of catalog.attributes(table)) {
          if (seen.has(name)) continue;
          seen.add(name);
          options.push({ label: name, apply: quoteName(name, reserved), type: "property", detail: "attribute", boost: 1 });
        }
      }
      for (const keyword of PARTIQL_KEYWORDS) options.push({ label: keyword, type: "keyword" });
      for (const fn of PARTIQL_FUNCTIONS) options.push({ label: fn, apply: `${fn}(`, type: "function" });
    }
    return { from: word.from, options, validFor: /^"?[\w#.-]*$/ };
  };
}
