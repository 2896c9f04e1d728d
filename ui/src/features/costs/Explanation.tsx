/**
 * The estimator's explanation lines as they come from Rust: one sentence each. The UI never
 * rewrites them. The rule of docs/dynamodb-rules.md a line applies (`rule`) is for the code and
 * its tests, not for the user: a code such as "B.12" says nothing to them, so it is not shown.
 */
import type { ExplanationLine } from "../../ipc/bindings.gen";
import { formatUnits } from "../../shared/format";
import "./Explanation.css";

export function Explanation({ lines, label }: { lines: ExplanationLine[]; label?: string }) {
  if (lines.length === 0) return null;
  return (
    <ul className="explanation" aria-label={label}>
      {lines.map((line, i) => (
        <li key={i}>
          <span>{line.text}</span>
        </li>
      ))}
    </ul>
  );
}

/** Units as DynamoDB reports them, with "≈" when the figure rests on average sizes. */
export function unitsText(units: number | null, exact = true): string {
  if (units === null) return "—";
  const text = formatUnits(units);
  return exact ? text : `≈ ${text}`;
}
