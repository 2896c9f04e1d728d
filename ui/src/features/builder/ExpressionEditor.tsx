import { useEffect, useRef, useState } from "react";
import type {
  ExpressionState,
  GeneratedExpression,
  KeySchemaState,
} from "../../ipc/bindings.gen";
import { ConditionBuilder } from "./ConditionBuilder";
import { ExpressionTextMode, type TextIssue, type TypedExpression } from "./ExpressionTextMode";
import { GeneratedView } from "./GeneratedView";
import { KeyConditionBuilder } from "./KeyConditionBuilder";
import { ProjectionBuilder } from "./ProjectionBuilder";
import { UpdateBuilder } from "./UpdateBuilder";
import { useDebounced } from "../../shared/useDebounced";
import { useGeneratedExpression } from "./useGeneratedExpression";
import "./ExpressionEditor.css";
import { useTabList } from "../../shared/useTabList";

type Mode = "visual" | "text";

const MODES: readonly Mode[] = ["visual", "text"];

/** The text mode's starting point: the generated expression and its maps, as JSON. */
function typedOf(generated: GeneratedExpression | null): TypedExpression {
  if (!generated) return { text: "", names: "", values: "" };
  const json = (map: object) => (Object.keys(map).length === 0 ? "" : JSON.stringify(map, null, 1));
  return {
    text: generated.expression,
    names: json(generated.ExpressionAttributeNames),
    values: json(generated.ExpressionAttributeValues),
  };
}

/**
 * One expression, built visually or typed as text, with the expression the backend generates
 * (and its ExpressionAttributeNames/Values) shown beside it. `state` is `null` while the
 * expression is empty (an optional filter or projection); a key condition and an update always
 * have one.
 *
 * In the text mode, what is typed is the expression: `onTextIssue` tells the parent while the text
 * does not stand for `state` (empty: leave the expression out; checking: not read yet; blocked: not
 * usable as typed, with the reason), so the parent never sends the older `state` in its place. An optional expression
 * (with `onClear`) has a Remove button in both modes. `onEdit` is told of every change the user
 * makes (a visual change, a key typed, a switch of mode, Remove), not of the text mode handing up
 * what it parsed.
 */
export function ExpressionEditor({
  state,
  onChange,
  suggestions,
  keySchema = null,
  label,
  onClear,
  onTextIssue,
  onEdit,
}: {
  state: ExpressionState;
  onChange: (state: ExpressionState) => void;
  /** Called when the last condition or attribute is removed (an optional expression). */
  onClear?: () => void;
  suggestions: readonly string[];
  keySchema?: KeySchemaState | null;
  label?: string;
  onTextIssue?: (issue: TextIssue | null) => void;
  onEdit?: () => void;
}) {
  const [mode, setMode] = useState<Mode>("visual");
  const [issue, setIssue] = useState<TextIssue | null>(null);
  const settled = useDebounced(state, 150);
  const { generated, problem } = useGeneratedExpression(settled);
  const report = (next: TextIssue | null) => {
    setIssue(next);
    onTextIssue?.(next);
  };
  // The text mode starts from the generated expression. When `state` changes from outside (a
  // saved or recent request loaded, the bar reset), the box is started again from the new one:
  // otherwise it would show, and the request would then be built from, the older text. What the
  // text mode handed up itself is not an outside change.
  const handed = useRef<string | null>(null);
  const [revision, setRevision] = useState(0);
  const generatedKey = JSON.stringify(generated ?? null);
  useEffect(() => {
    if (mode !== "text" || generated == null) return;
    if (JSON.stringify(settled) === handed.current) return;
    handed.current = JSON.stringify(settled);
    setRevision((r) => r + 1);
    // `generatedKey` stands for `generated`, which follows `settled`.
  }, [generatedKey]);
  const switchTo = (next: Mode) => {
    if (next === mode) return;
    onEdit?.();
    // An emptied text box removes the optional expression; otherwise the visual form shows `state`.
    if (next === "visual" && issue?.kind === "empty" && onClear) onClear();
    setMode(next);
  };
  const modeTabs = useTabList(MODES, mode, switchTo);

  const title = label ?? state.parameter;
  const noun = label?.toLowerCase() ?? state.parameter;
  return (
    <section className="expression-editor" aria-label={title}>
      <div className="expression-editor-head">
        <h3>{title}</h3>
        <div role="tablist" aria-label={`${title} mode`} className="mode-tabs">
          {MODES.map((m) => (
            <button key={m} type="button" {...modeTabs.tabProps(m)}>
              {m === "visual" ? "Visual" : "Text"}
            </button>
          ))}
        </div>
        {onClear && (
          <button
            type="button"
            className="expression-remove"
            onClick={() => {
              onEdit?.();
              onClear();
            }}
          >
            Remove {noun}
          </button>
        )}
      </div>
      <div role="tabpanel">
        {mode === "text" ? (
          <ExpressionTextMode
            key={revision}
            parameter={state.parameter}
            initial={typedOf(generated)}
            keySchema={keySchema}
            noun={noun}
            onParsed={(parsed) => {
              if (parsed.parameter !== state.parameter) return;
              handed.current = JSON.stringify(parsed);
              onChange(parsed);
            }}
            onIssue={report}
            onEdit={onEdit}
          />
        ) : (
          <VisualBuilder
            state={state}
            onChange={(next) => {
              onEdit?.();
              onChange(next);
            }}
            onClear={() => {
              onEdit?.();
              onClear?.();
            }}
            suggestions={suggestions}
            keySchema={keySchema}
          />
        )}
      </div>
      {mode === "text" && issue !== null ? null : problem ? (
        <p className="expression-error" role="status">
          {problem}
        </p>
      ) : generated ? (
        <GeneratedView
          parameter={generated.parameter}
          expression={generated.expression}
          names={generated.ExpressionAttributeNames}
          values={generated.ExpressionAttributeValues}
        />
      ) : null}
    </section>
  );
}

function VisualBuilder({
  state,
  onChange,
  onClear,
  suggestions,
  keySchema,
}: {
  state: ExpressionState;
  onChange: (state: ExpressionState) => void;
  onClear: () => void;
  suggestions: readonly string[];
  keySchema: KeySchemaState | null;
}) {
  switch (state.parameter) {
    case "KeyConditionExpression":
      return keySchema ? (
        <KeyConditionBuilder
          schema={keySchema}
          condition={state.state}
          onChange={(c) => onChange({ parameter: "KeyConditionExpression", state: c })}
        />
      ) : (
        <p className="builder-hint">A key condition needs the key schema of a table or index.</p>
      );
    case "FilterExpression":
    case "ConditionExpression": {
      const parameter = state.parameter;
      return (
        <ConditionBuilder
          label={parameter}
          condition={state.state}
          suggestions={suggestions}
          onChange={(c) => (c ? onChange({ parameter, state: c }) : onClear())}
        />
      );
    }
    case "ProjectionExpression":
      return (
        <ProjectionBuilder
          projection={state.state}
          suggestions={suggestions}
          onChange={(p) => (p ? onChange({ parameter: "ProjectionExpression", state: p }) : onClear())}
        />
      );
    case "UpdateExpression":
      return (
        <UpdateBuilder update={state.state} suggestions={suggestions} onChange={(u) => onChange({ parameter: "UpdateExpression", state: u })} />
      );
  }
}
