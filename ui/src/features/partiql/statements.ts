/**
 * The text of the editor as PartiQL sees it, without a parser: where the `?` parameters are,
 * where one statement ends and the next begins (`;` between statements), and the position a
 * DynamoDB error message names. Strings ('…'), quoted names ("…") and comments (-- and /* *\/)
 * are skipped, so a `?` or `;` inside them counts for nothing.
 */

/** One statement of the text: where it is, and how many `?` it has. */
export type StatementSpan = { text: string; from: number; to: number; parameters: number };

type Scan = { parameters: number[]; separators: number[] };

function scan(text: string): Scan {
  const parameters: number[] = [];
  const separators: number[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "'" || c === '"') {
      // A quote closes the string unless doubled ('' is a quote inside the string).
      let j = i + 1;
      while (j < text.length) {
        if (text[j] === c) {
          if (text[j + 1] === c) j += 2;
          else break;
        } else j += 1;
      }
      i = j + 1;
    } else if (c === "-" && text[i + 1] === "-") {
      const end = text.indexOf("\n", i);
      i = end === -1 ? text.length : end + 1;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 2;
    } else {
      if (c === "?") parameters.push(i);
      if (c === ";") separators.push(i);
      i += 1;
    }
  }
  return { parameters, separators };
}

/** How many `?` parameters the text has. */
export function countParameters(text: string): number {
  return scan(text).parameters.length;
}

/** The statements of the text, split at top-level `;`; blank ones are left out. */
export function splitStatements(text: string): StatementSpan[] {
  const { parameters, separators } = scan(text);
  const bounds = [-1, ...separators, text.length];
  const spans: StatementSpan[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    let from = (bounds[k] ?? -1) + 1;
    let to = bounds[k + 1] ?? text.length;
    while (from < to && /\s/.test(text.charAt(from))) from++;
    while (to > from && /\s/.test(text.charAt(to - 1))) to--;
    if (from === to) continue;
    spans.push({ text: text.slice(from, to), from, to, parameters: parameters.filter((p) => p >= from && p < to).length });
  }
  return spans;
}

/** Whether a statement writes (anything but a SELECT): the read-only badge and the backend agree. */
export function isWrite(statement: string): boolean {
  const stripped = statement.replace(/^(\s|\(|--[^\n]*(\n|$)|\/\*[\s\S]*?\*\/)*/, "");
  return !/^select\b/i.test(stripped);
}

/** Where in `text` (offsets) a DynamoDB error message points, when it names a place. */
export function errorRange(text: string, message: string): { from: number; to: number } | null {
  // Positional messages end in `at <line>:<column>:<length>`, columns counted in characters.
  const at = / at (\d+):(\d+):(\d+)\s*$/.exec(message);
  if (at !== null) {
    const [line, column, length] = [Number(at[1]), Number(at[2]), Number(at[3])];
    const lines = text.split("\n");
    const lineText = lines[line - 1];
    if (line >= 1 && lineText !== undefined) {
      const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
      const chars = Array.from(lineText);
      const before = chars.slice(0, column - 1).join("").length;
      const inside = chars.slice(column - 1, column - 1 + Math.max(length, 1)).join("").length;
      const from = start + Math.min(before, lineText.length);
      return { from, to: Math.min(from + Math.max(inside, 1), text.length) };
    }
  }
  // A statement that does not start with a verb: the first word is the place.
  if (/Expected data manipulation/i.test(message)) {
    const first = firstWord(text);
    if (first !== null) return first;
  }
  // Messages that name a token without a position: find it in the text.
  const named =
    /(?:reserved keyword|Unexpected (?:keyword|token|character)|Key|keyword):? ("?[\w#.-]+"?)\s*$/i.exec(message) ??
    /'([^']+)'/.exec(message);
  if (named !== null) {
    const token = (named[1] ?? "").replace(/^"|"$/g, "");
    const found = text.toLowerCase().indexOf(token.toLowerCase());
    if (token !== "" && found !== -1) return { from: found, to: found + token.length };
  }
  return null;
}

/** Where the first word of a statement is, past blanks and comments. */
function firstWord(text: string): { from: number; to: number } | null {
  const lead = /^(\s|--[^\n]*(\n|$)|\/\*[\s\S]*?\*\/)*/.exec(text)?.[0].length ?? 0;
  const word = /^[^\s(]+/.exec(text.slice(lead))?.[0];
  return word === undefined ? null : { from: lead, to: lead + word.length };
}

/** The line and column (from 1, in characters) of `offset` in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, column: Array.from(before.slice(lineStart)).length + 1 };
}

/**
 * What DynamoDB's error on a statement leaves unsaid and the app can say, or null: the table it
 * did not find, by name, on which connection (from the statement run and the connection's table
 * list, null while that list is not known); why a statement is not a statement at all.
 */
export function statementErrorSentence(
  error: { code: string; message: string },
  statement: string,
  tables: readonly string[] | null,
  connection: string,
  namedTables: readonly string[],
): string | null {
  if (error.code === "NOT_FOUND" && namedTables.length > 0) {
    const quoted = (names: readonly string[]) => names.map((n) => `"${n}"`).join(", ");
    const missing = tables === null ? [] : namedTables.filter((t) => !tables.includes(t) && !tables.includes(t.split(".")[0] ?? t));
    if (missing.length > 0) return `No table named ${quoted(missing)} on ${connection}.`;
    return `${quoted(namedTables)} was not found on ${connection}: the table, or an index the statement names.`;
  }
  if (/Expected data manipulation/i.test(error.message)) {
    const first = firstWord(statement);
    const word = first === null ? "" : statement.slice(first.from, first.to);
    return `A statement starts with SELECT, INSERT, UPDATE or DELETE${word === "" ? "." : `: this one starts with ${word}.`}`;
  }
  return null;
}
