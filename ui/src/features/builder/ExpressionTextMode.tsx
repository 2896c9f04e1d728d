import { useEffect, useId, useRef, useState } from "react";
import type {
  Diagnostic,
  ExpressionParameter,
  ExpressionState,
  KeySchemaState,
} from "../../ipc/bindings.gen";
import { byteToIndex } from "./model";
import { useDebounced } from "../../shared/useDebounced";
import { useExpressionCheck, type TypedExpression } from "./useExpressionCheck";
import "./ExpressionTextMode.css";

export type { TypedExpression };

/**
 * Why the text on screen does not stand for the expression the parent holds: the box is empty
 * (the expression is to be left out), the text is still being checked (typed less than the
 * pause ago, or its parse not answered yet: it may well be usable), or the text cannot be used as
 * it is (`reason`, in words).
 */
export type TextIssue = { kind: "empty" } | { kind: "checking" } | { kind: "blocked"; reason: string };

/**
 * The text mode: the user types or pastes an expression with its names and values; the backend
 * parses it with the engine's parser as they type (debounced). Errors are shown at the position
 * they occur with DynamoDB's message; a valid text is handed back (`onParsed`) as builder state.
 * Until it is, `onIssue` says why the parent's state is not what is typed (still being checked,
 * not valid, or empty), and null once it is; so nothing runs on an older expression than the one
 * on screen. `onEdit` is told of every change the user types (the parse handed up is not one).
 */
export function ExpressionTextMode({
  parameter,
  initial,
  keySchema,
  onParsed,
  onIssue,
  onEdit,
  noun = parameter,
  delay = 300,
}: {
  parameter: ExpressionParameter;
  initial: TypedExpression;
  keySchema: KeySchemaState | null;
  onParsed: (state: ExpressionState) => void;
  onIssue?: ((issue: TextIssue | null) => void) | undefined;
  onEdit?: (() => void) | undefined;
  /** What the expression is called in sentences ("filter"). */
  noun?: string;
  delay?: number;
}) {
  const id = useId();
  const [typed, setTypedState] = useState<TypedExpression>(initial);
  const setTyped = (next: TypedExpression) => {
    setTypedState(next);
    onEdit?.();
  };
  const settled = useDebounced(typed, delay);
  const check = useExpressionCheck(settled, parameter, keySchema, onParsed);

  const stillTyping = JSON.stringify(typed) !== JSON.stringify(settled);
  const issue: TextIssue | null =
    stillTyping || check.status === "checking"
      ? { kind: "checking" }
      : check.status === "malformed"
        ? { kind: "blocked", reason: `The ${noun} as typed cannot be read: ${check.message}` }
        : check.status === "invalid"
          ? { kind: "blocked", reason: `The ${noun} as typed is not valid: correct it, or remove the ${noun}.` }
          : settled.text.trim() === ""
            ? { kind: "empty" }
            : null;
  const issueKey = JSON.stringify(issue);
  const report = useRef(onIssue);
  report.current = onIssue;
  useEffect(() => {
    report.current?.(issue);
    // `issueKey` stands for `issue`.
  }, [issueKey]);
  // Once the text mode is gone, what it typed no longer stands in for the parent's state.
  useEffect(() => () => report.current?.(null), []);

  return (
    <div className="expression-text-mode">
      <label htmlFor={`${id}-text`}>{parameter}</label>
      <textarea
        id={`${id}-text`}
        className="expression-text"
        rows={3}
        spellCheck={false}
        aria-invalid={check.status === "invalid"}
        aria-describedby={`${id}-status`}
        value={typed.text}
        onChange={(e) => setTyped({ ...typed, text: e.target.value })}
      />
      <div className="expression-maps">
        <label>
          ExpressionAttributeNames
          <textarea rows={3} spellCheck={false} value={typed.names} onChange={(e) => setTyped({ ...typed, names: e.target.value })} />
        </label>
        <label>
          ExpressionAttributeValues
          <textarea rows={3} spellCheck={false} value={typed.values} onChange={(e) => setTyped({ ...typed, values: e.target.value })} />
        </label>
      </div>
      <div id={`${id}-status`} className="expression-status" aria-live="polite">
        {check.status === "valid" ? (
          <p className="expression-valid">Valid: shown in the visual builder.</p>
        ) : issue?.kind === "empty" ? (
          <p className="builder-hint">Empty: the request is sent without a {noun}.</p>
        ) : check.status === "malformed" ? (
          <p className="expression-error" role="alert">
            {check.message}
          </p>
        ) : check.status === "invalid" ? (
          <ul className="diagnostics" role="alert">
            {check.diagnostics.map((d, i) => (
              <li key={i}>
                <DiagnosticView diagnostic={d} text={settled.text} />
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}

/** One of DynamoDB's objections, with the text it points at marked. */
export function DiagnosticView({ diagnostic, text }: { diagnostic: Diagnostic; text: string }) {
  const span = diagnostic.span;
  return (
    <div className="diagnostic">
      <p className="expression-error">
        <strong>{diagnostic.exception}</strong>: {diagnostic.message}
      </p>
      {span ? (
        <pre className="diagnostic-text" aria-label={`Error at characters ${byteToIndex(text, span.start) + 1} to ${byteToIndex(text, span.end)}`}>
          {text.slice(0, byteToIndex(text, span.start))}
          <mark>{text.slice(byteToIndex(text, span.start), Math.max(byteToIndex(text, span.end), byteToIndex(text, span.start) + 1)) || " "}</mark>
          {text.slice(Math.max(byteToIndex(text, span.end), byteToIndex(text, span.start) + 1))}
        </pre>
      ) : null}
    </div>
  );
}
