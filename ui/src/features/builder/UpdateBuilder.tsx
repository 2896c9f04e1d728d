import type { AttributePath, SetValueState, UpdateActionState, UpdateOperandState, UpdateState } from "../../ipc/bindings.gen";
import { PathInput } from "./PathInput";
import { ValueInput } from "./ValueInput";
import "./UpdateBuilder.css";

/** The forms of a SET action's right-hand side. */
const SET_FORMS = {
  value: "value",
  plus: "path + value",
  minus: "path − value",
  ifNotExists: "if_not_exists(path, value)",
  listAppend: "list_append(path, value)",
} as const;
type SetForm = keyof typeof SET_FORMS;

function setForm(value: SetValueState): SetForm {
  if (value.type === "plus") return "plus";
  if (value.type === "minus") return "minus";
  if (value.operand.type === "ifNotExists") return "ifNotExists";
  if (value.operand.type === "listAppend") return "listAppend";
  return "value";
}

/** A SET right-hand side of another form, on `path` (the attribute being set). */
function setValueOf(form: SetForm, path: AttributePath): SetValueState {
  switch (form) {
    case "value":
      return { type: "operand", operand: { type: "value", value: { S: "" } } };
    case "plus":
      return { type: "plus", left: { type: "path", path }, right: { type: "value", value: { N: "1" } } };
    case "minus":
      return { type: "minus", left: { type: "path", path }, right: { type: "value", value: { N: "1" } } };
    case "ifNotExists":
      return { type: "operand", operand: { type: "ifNotExists", path, fallback: { type: "value", value: { N: "0" } } } };
    case "listAppend":
      return {
        type: "operand",
        operand: { type: "listAppend", first: { type: "path", path }, second: { type: "value", value: { L: [] } } },
      };
  }
}

function actionOf(kind: UpdateActionState["action"], path: AttributePath): UpdateActionState {
  switch (kind) {
    case "set":
      return { action: "set", path, value: setValueOf("value", path) };
    case "remove":
      return { action: "remove", path };
    case "add":
      return { action: "add", path, value: { N: "1" } };
    case "delete":
      return { action: "delete", path, value: { SS: ["x"] } };
  }
}

/**
 * An UpdateExpression: SET (a value, arithmetic, if_not_exists, list_append), REMOVE, ADD and
 * DELETE actions on nested paths. The backend groups them into one clause per kind.
 */
export function UpdateBuilder({
  update,
  onChange,
  suggestions,
}: {
  update: UpdateState;
  onChange: (update: UpdateState) => void;
  suggestions: readonly string[];
}) {
  const fallback: AttributePath = [suggestions[0] ?? "attribute"];
  const actions = update.actions;
  const replace = (i: number, action: UpdateActionState | null) =>
    onChange({ actions: action === null ? actions.filter((_, j) => j !== i) : actions.map((a, j) => (j === i ? action : a)) });
  return (
    <div className="update-builder" role="group" aria-label="Update">
      <ol className="update-actions">
        {actions.map((action, i) => (
          <li key={i} className="update-action">
            <select
              aria-label={`Action ${i + 1}`}
              value={action.action}
              onChange={(e) => replace(i, actionOf(e.target.value as UpdateActionState["action"], action.path))}
            >
              <option value="set">SET</option>
              <option value="remove">REMOVE</option>
              <option value="add">ADD</option>
              <option value="delete">DELETE</option>
            </select>
            <PathInput
              label={`Path of action ${i + 1}`}
              path={action.path}
              suggestions={suggestions}
              onChange={(path) => replace(i, { ...action, path })}
            />
            {action.action === "set" ? (
              <SetValueEditor index={i + 1} target={action.path} value={action.value} suggestions={suggestions} onChange={(value) => replace(i, { ...action, value })} />
            ) : action.action === "add" || action.action === "delete" ? (
              <ValueInput
                label={`Value of action ${i + 1}`}
                value={action.value}
                types={action.action === "add" ? ["N", "SS", "NS", "BS"] : ["SS", "NS", "BS"]}
                onChange={(value) => replace(i, { ...action, value })}
              />
            ) : null}
            <button type="button" aria-label={`Remove action ${i + 1}`} onClick={() => replace(i, null)}>
              ×
            </button>
          </li>
        ))}
      </ol>
      <button type="button" disabled={actions.length >= 300} onClick={() => onChange({ actions: [...actions, actionOf("set", fallback)] })}>
        Add action
      </button>
    </div>
  );
}

function SetValueEditor({
  index,
  target,
  value,
  onChange,
  suggestions,
}: {
  index: number;
  target: AttributePath;
  value: SetValueState;
  onChange: (value: SetValueState) => void;
  suggestions: readonly string[];
}) {
  const form = setForm(value);
  const operand = (label: string, o: UpdateOperandState, set: (o: UpdateOperandState) => void) =>
    o.type === "path" ? (
      <PathInput label={`${label} of action ${index}`} path={o.path} suggestions={suggestions} onChange={(path) => set({ type: "path", path })} />
    ) : o.type === "value" ? (
      <ValueInput label={`${label} of action ${index}`} value={o.value} onChange={(v) => set({ type: "value", value: v })} />
    ) : null;
  return (
    <span className="set-value">
      <span aria-hidden="true">=</span>
      <select aria-label={`Form of action ${index}`} value={form} onChange={(e) => onChange(setValueOf(e.target.value as SetForm, target))}>
        {(Object.keys(SET_FORMS) as SetForm[]).map((f) => (
          <option key={f} value={f}>
            {SET_FORMS[f]}
          </option>
        ))}
      </select>
      {value.type === "plus" || value.type === "minus" ? (
        <>
          {operand("Left", value.left, (left) => onChange({ ...value, left }))}
          <span aria-hidden="true">{value.type === "plus" ? "+" : "−"}</span>
          {operand("Right", value.right, (right) => onChange({ ...value, right }))}
        </>
      ) : value.operand.type === "ifNotExists" ? (
        (() => {
          const o = value.operand;
          return (
            <>
              <PathInput
                label={`Checked path of action ${index}`}
                path={o.path}
                suggestions={suggestions}
                onChange={(path) => onChange({ type: "operand", operand: { ...o, path } })}
              />
              {operand("Fallback", o.fallback, (fallback) => onChange({ type: "operand", operand: { ...o, fallback } }))}
            </>
          );
        })()
      ) : value.operand.type === "listAppend" ? (
        (() => {
          const o = value.operand;
          return (
            <>
              {operand("First list", o.first, (first) => onChange({ type: "operand", operand: { ...o, first } }))}
              {operand("Second list", o.second, (second) => onChange({ type: "operand", operand: { ...o, second } }))}
            </>
          );
        })()
      ) : (
        operand("Value", value.operand, (o) => onChange({ type: "operand", operand: o }))
      )}
    </span>
  );
}
