/**
 * The estimator's explanation lines as they come from Rust: one sentence each, with the rule of
 * docs/dynamodb-rules.md it applies as a small chip. The UI never rewrites them.
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
          {line.rule !== null && (
            <span className="rule-chip" title={`Rule ${line.rule} of the DynamoDB rules`}>
              {line.rule}
            </span>
          )}
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
