/**
 * The form's inputs: each one labelled (the label names the input for screen readers, tests and
 * the keyboard), numbers and lists kept as typed until they read as a value, so clearing a field
 * to type a new number does not snap back.
 */
import { useId, useState, type InputHTMLAttributes, type ReactNode } from "react";
import type { ModelProblem } from "../../../ipc/bindings.gen";

type Extra = Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "type" | "id">;

export function TextField({ label, value, onChange, testId, ...rest }: { label: string; value: string; onChange: (v: string) => void; testId?: string } & Extra) {
  const id = useId();
  return (
    <span className="mf-field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="text" value={value} spellCheck={false} data-testid={testId} onChange={(e) => onChange(e.target.value)} {...rest} />
    </span>
  );
}

/**
 * A number: `onChange` hears every text that reads as a finite number (or, when `optional`,
 * the empty text as `null`); what does not is kept on screen until the field loses focus.
 */
export function NumberField({
  label,
  value,
  onChange,
  optional = false,
  testId,
  ...rest
}: { label: string; value: number | null; onChange: (v: number | null) => void; optional?: boolean; testId?: string } & Extra) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const shown = draft ?? (value === null ? "" : String(value));
  return (
    <span className="mf-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        className="mf-number"
        value={shown}
        data-testid={testId}
        onChange={(e) => {
          const text = e.target.value;
          setDraft(text);
          if (text.trim() === "") {
            if (optional) onChange(null);
          } else if (Number.isFinite(Number(text))) onChange(Number(text));
        }}
        onBlur={() => setDraft(null)}
        {...rest}
      />
    </span>
  );
}

/** A list typed as comma-separated text (`DEP-N, DEP-S`). */
export function ListField({ label, value, onChange, testId, ...rest }: { label: string; value: readonly string[]; onChange: (v: string[]) => void; testId?: string } & Extra) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <span className="mf-field mf-wide">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        spellCheck={false}
        value={draft ?? value.join(", ")}
        data-testid={testId}
        onChange={(e) => {
          setDraft(e.target.value);
          onChange(
            e.target.value
              .split(",")
              .map((s) => s.trim())
              .filter((s) => s !== ""),
          );
        }}
        onBlur={() => setDraft(null)}
        {...rest}
      />
    </span>
  );
}

export function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
  testId,
}: {
  label: string;
  value: T;
  options: readonly (T | { value: T; label: string })[];
  onChange: (v: T) => void;
  testId?: string;
}) {
  const id = useId();
  const known = options.some((o) => (typeof o === "string" ? o : o.value) === value);
  return (
    <span className="mf-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} data-testid={testId} onChange={(e) => onChange(e.target.value as T)}>
        {!known && <option value={value}>{value === "" ? "(choose)" : `${value} (not in the model)`}</option>}
        {options.map((o) => {
          const v = typeof o === "string" ? o : o.value;
          return (
            <option key={v} value={v}>
              {typeof o === "string" ? o : o.label}
            </option>
          );
        })}
      </select>
    </span>
  );
}

export function CheckField({ label, checked, onChange, testId, disabled }: { label: string; checked: boolean; onChange: (v: boolean) => void; testId?: string; disabled?: boolean }) {
  const id = useId();
  return (
    <span className="mf-field mf-check">
      <input id={id} type="checkbox" checked={checked} disabled={disabled} data-testid={testId} onChange={(e) => onChange(e.target.checked)} />
      <label htmlFor={id}>{label}</label>
    </span>
  );
}

export function RemoveButton({ what, onClick, testId }: { what: string; onClick: () => void; testId?: string }) {
  return (
    <button type="button" className="mf-remove" aria-label={`Remove ${what}`} title={`Remove ${what}`} onClick={onClick} data-testid={testId}>
      Remove
    </button>
  );
}

export function AddButton({ children, onClick, disabled, title, testId }: { children: ReactNode; onClick: () => void; disabled?: boolean; title?: string | undefined; testId?: string }) {
  return (
    <button type="button" className="mf-add" onClick={onClick} disabled={disabled} title={title} data-testid={testId}>
      {children}
    </button>
  );
}

/** The backend's problem, shown beside the part of the form it concerns. */
export function ProblemNote({ problem }: { problem: ModelProblem | null }) {
  if (problem === null) return null;
  return (
    <p className="mf-problem" role="alert" data-testid="modeler-form-problem">
      {problem.exception ? `${problem.exception}: ` : ""}
      {problem.message}
    </p>
  );
}
