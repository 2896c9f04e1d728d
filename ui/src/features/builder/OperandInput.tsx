import type { AttributePath, Operand } from "../../ipc/bindings.gen";
import { PathInput } from "./PathInput";
import { ValueInput } from "./ValueInput";

/** The right-hand side of a comparison: a typed value, or another attribute of the item. */
export function OperandInput({
  label,
  operand,
  onChange,
  suggestions,
}: {
  label: string;
  operand: Operand;
  onChange: (operand: Operand) => void;
  suggestions: readonly string[];
}) {
  const kind = operand.type === "value" ? "value" : "path";
  const firstPath: AttributePath = [suggestions[0] ?? "attribute"];
  return (
    <span className="operand-input">
      <select
        aria-label={`${label} kind`}
        value={kind}
        onChange={(e) =>
          onChange(e.target.value === "value" ? { type: "value", value: { S: "" } } : { type: "path", path: firstPath })
        }
      >
        <option value="value">value</option>
        <option value="path">attribute</option>
      </select>
      {operand.type === "value" ? (
        <ValueInput label={label} value={operand.value} onChange={(value) => onChange({ type: "value", value })} />
      ) : operand.type === "path" ? (
        <PathInput
          label={label}
          path={operand.path}
          suggestions={suggestions}
          onChange={(path) => onChange({ type: "path", path })}
        />
      ) : (
        <OperandInput label={label} operand={operand.operand} onChange={onChange} suggestions={suggestions} />
      )}
    </span>
  );
}

/** The subject of a condition: an attribute path, or `size(path)`. */
export function SubjectInput({
  label,
  operand,
  onChange,
  suggestions,
}: {
  label: string;
  operand: Operand;
  onChange: (operand: Operand) => void;
  suggestions: readonly string[];
}) {
  const sized = operand.type === "size";
  const inner = operand.type === "size" ? operand.operand : operand;
  const path: AttributePath = inner.type === "path" ? inner.path : [suggestions[0] ?? "attribute"];
  const make = (nextPath: AttributePath, nextSized: boolean): Operand =>
    nextSized ? { type: "size", operand: { type: "path", path: nextPath } } : { type: "path", path: nextPath };
  return (
    <span className="subject-input">
      <label className="inline-check">
        <input type="checkbox" checked={sized} onChange={(e) => onChange(make(path, e.target.checked))} />
        size of
      </label>
      <PathInput label={label} path={path} suggestions={suggestions} onChange={(p) => onChange(make(p, sized))} />
    </span>
  );
}
