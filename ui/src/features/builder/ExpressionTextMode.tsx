import { useEffect, useId, useState } from "react";
import type {
  AttributeValueJson,
  Diagnostic,
  ExpressionParameter,
  ExpressionState,
  KeySchemaState,
} from "../../ipc/bindings.gen";
import { byteToIndex } from "./model";
import { useDebounced } from "./useDebounced";
import { useCommands } from "../../ipc/CommandsContext";
import "./ExpressionTextMode.css";

/** What the user typed: the expression and its two maps (JSON objects). */
export type TypedExpression = { text: string; names: string; values: string };

type Check =
  | { status: "idle" }
  | { status: "valid" }
  | { status: "invalid"; diagnostics: Diagnostic[] }
  | { status: "malformed"; message: string };

function parseMap<T>(label: string, text: string): { map: { [key in string]: T } | null } | { error: string } {
  if (text.trim() === "") return { map: null };
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) return { map: parsed as { [key in string]: T } };
  } catch {
    // reported below
  }
  return { error: `${label} is a JSON object.` };
}

/**
 * The text mode: the user types or pastes an expression with its names and values; the backend
 * parses it with the engine's parser as they type (debounced). Errors are shown at the position
 * they occur with DynamoDB's message; a valid text is handed back (`onParsed`) as builder state.
 */
export function ExpressionTextMode({
  parameter,
  initial,
  keySchema,
  onParsed,
  delay = 300,
}: {
  parameter: ExpressionParameter;
  initial: TypedExpression;
  keySchema: KeySchemaState | null;
  onParsed: (state: ExpressionState) => void;
  delay?: number;
}) {
  const source = useCommands();
  const id = useId();
  const [typed, setTyped] = useState<TypedExpression>(initial);
  const [check, setCheck] = useState<Check>({ status: "idle" });
  const settled = useDebounced(typed, delay);

  useEffect(() => {
    let live = true;
    const names = parseMap<string>("ExpressionAttributeNames", settled.names);
    const values = parseMap<AttributeValueJson>("ExpressionAttributeValues", settled.values);
    if ("error" in names || "error" in values) {
      setCheck({ status: "malformed", message: "error" in names ? names.error : "error" in values ? values.error : "" });
      return;
    }
    if (settled.text.trim() === "") {
      setCheck({ status: "idle" });
      return;
    }
    source
      .parseExpressions(
        {
          Expressions: [{ parameter, text: settled.text }],
          ExpressionAttributeNames: names.map,
          ExpressionAttributeValues: values.map,
        },
        keySchema,
      )
      .then(
        (outcome) => {
          if (!live) return;
          if (outcome.status === "parsed") {
            setCheck({ status: "valid" });
            const state = outcome.states[0];
            if (state) onParsed(state);
          } else {
            setCheck({ status: "invalid", diagnostics: outcome.diagnostics });
          }
        },
        (err: unknown) => live && setCheck({ status: "malformed", message: String(err) }),
      );
    return () => {
      live = false;
    };
    // onParsed is a callback of the parent; a new one must not parse again.
  }, [settled, parameter, keySchema, source]);

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
