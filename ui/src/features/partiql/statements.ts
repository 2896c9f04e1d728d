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
