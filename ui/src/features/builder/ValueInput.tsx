import { useEffect, useId, useState } from "react";
import type { AttributeValueJson } from "../../ipc/bindings.gen";
import { parseValue, valueText, valueType, VALUE_TYPES, type ValueType } from "./model";
import "./ValueInput.css";

/**
 * A typed value: its DynamoDB type and its text. Only a valid value is passed on; while the text
 * is not one, the reason is shown beside it and the last valid value stays in the state.
 */
export function ValueInput({
  label,
  value,
  onChange,
  types = VALUE_TYPES,
  onProblem,
}: {
  label: string;
  value: AttributeValueJson;
  onChange: (value: AttributeValueJson) => void;
  /** The types offered (a key value offers only its key type). */
  types?: readonly ValueType[];
  /** Told, on each edit, why the text typed is not a value (null once it is one). */
  onProblem?: (problem: string | null) => void;
}) {
  const id = useId();
  const [type, setType] = useState<ValueType>(valueType(value));
  const [text, setText] = useState(valueText(value));
  const [error, setError] = useState<string | null>(null);

  // A value changed from outside (text mode, a loaded expression) replaces what is typed.
  useEffect(() => {
    const current = parseValue(type, text);
    if (!("value" in current) || JSON.stringify(current.value) !== JSON.stringify(value)) {
      setType(valueType(value));
      setText(valueText(value));
      setError(null);
    }
  }, [JSON.stringify(value)]);

  const edit = (nextType: ValueType, nextText: string) => {
    setType(nextType);
    setText(nextText);
    const parsed = parseValue(nextType, nextText);
    if ("value" in parsed) {
      setError(null);
      onProblem?.(null);
      onChange(parsed.value);
    } else {
      setError(parsed.error);
      onProblem?.(parsed.error);
    }
  };

  const multiline = type === "SS" || type === "NS" || type === "BS" || type === "L" || type === "M";
  return (
    <span className="value-input">
      <select
        aria-label={`${label} type`}
        value={type}
        onChange={(e) => edit(e.target.value as ValueType, e.target.value === "BOOL" ? "true" : text)}
      >
        {types.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
      {type === "NULL" ? null : type === "BOOL" ? (
        <select aria-label={label} value={text} onChange={(e) => edit(type, e.target.value)}>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      ) : multiline ? (
        <textarea
          id={id}
          aria-label={label}
          aria-invalid={error !== null}
          rows={2}
          value={text}
          onChange={(e) => edit(type, e.target.value)}
        />
      ) : (
        <input
          id={id}
          aria-label={label}
          aria-invalid={error !== null}
          value={text}
          inputMode={type === "N" ? "decimal" : "text"}
          onChange={(e) => edit(type, e.target.value)}
        />
      )}
      {error ? (
        <span className="value-input-error" role="alert">
          {error}
        </span>
      ) : null}
    </span>
  );
}
