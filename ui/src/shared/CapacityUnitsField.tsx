/**
 * A provisioned capacity field (RCU or WCU), the one the New table form and a table's Settings
 * both draw: its caption, a number input, and, while what is typed is not a whole number from 1
 * to 40,000 (`typedUnits`, rule B.7 in docs/dynamodb-rules.md), the sentence that says so under
 * it. The input is marked `aria-invalid` then and described by the sentence (`aria-describedby`),
 * which is announced as it appears. The screen keeps the text; what it sends is `typedUnits(text)`.
 */
import { MAX_UNITS, MIN_UNITS, typedUnits } from "./capacityUnits";
import "./CapacityUnitsField.css";

export type CapacityUnitsFieldProps = {
  /** The visible caption: "RCU" or "WCU". */
  label: string;
  /** The input's accessible name: "Read capacity units" or "Write capacity units". */
  name: string;
  /** The input's test id; its problem's is `${testId}-problem`, and so is the problem's id. */
  testId: string;
  value: string;
  onChange: (text: string) => void;
};

export function CapacityUnitsField({ label, name, testId, value, onChange }: CapacityUnitsFieldProps) {
  const typed = typedUnits(value);
  const problemId = `${testId}-problem`;
  return (
    <span className="capacity-units">
      <label>
        {label}{" "}
        <input
          type="number"
          min={MIN_UNITS}
          max={MAX_UNITS}
          step={1}
          aria-label={name}
          data-testid={testId}
          className="capacity-units-input"
          value={value}
          aria-invalid={!typed.ok}
          aria-describedby={typed.ok ? undefined : problemId}
          onChange={(e) => onChange(e.target.value)}
        />
      </label>
      {!typed.ok && (
        <span id={problemId} className="field-error" role="alert" data-testid={problemId}>
          {typed.sentence}
        </span>
      )}
    </span>
  );
}
