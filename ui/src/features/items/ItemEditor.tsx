/**
 * View, create and edit one item, in three modes that share one edit: a typed form (one row per
 * attribute), plain JSON and DynamoDB JSON. Switching modes converts the current text; text that
 * does not parse keeps the editor where it is and says why.
 *
 * Checks run in two places. Here: the text parses, key attributes are present and typed, and an
 * existing item's key is not changed. In the engine (the `validate` prop, wired to the Rust rules):
 * DynamoDB's item rules and the item's size, drawn as a meter against the 400 KB limit
 * (rules B.1 and B.7, docs/dynamodb-rules.md). While either finds a problem, Save is off and the
 * first problem is said beside it; otherwise saving checks the item once more, then asks for a
 * confirmation that names the key.
 */
import { useEffect, useId, useMemo, useRef, useState } from "react";
import type { KeySchema } from "../../ipc/bindings.gen";
import type { Item } from "../../shared/attributeValue";
import { ATTRIBUTE_TYPES, byteCountLabel, typeName, type AttributeType } from "../../shared/attributeValue";
import { formatDynamoJson, formatPlainJson, parseDynamoJson, parsePlainJson, type TextProblem } from "../../shared/dynamoJson";
import { describeKey, keyChangeProblems, keyProblems } from "../../shared/itemKey";
import { keyAttributes } from "../../shared/keySchema";
import { itemToRows, newRowId, retypeText, rowProblems, rowsToItem, type FormRow } from "./formRows";
import { ConfirmPanel } from "./ConfirmPanel";
import "./ItemEditor.css";

export type EditorMode = "form" | "plain" | "dynamo";

/** What the engine says about an item: its size by DynamoDB's rules and what is wrong with it. */
export type ItemValidation = {
  /** Null while a value is not valid: the engine cannot size the item then. */
  sizeBytes: number | null;
  problems: { path: string; message: string }[];
};

/**
 * Why a save failed: the exception's name ("" when the message already says it in words, as for
 * a condition that did not hold) and the message.
 */
export type SaveError = { name: string; message: string };

export type ItemEditorProps = {
  /** The key schema of the table the item lives in. */
  keys: KeySchema;
  /** The item to start from; null starts an empty new item. */
  item: Item | null;
  /** True when editing an item that exists (its key is read-only); false to create or duplicate. */
  existing: boolean;
  /** Checks the item by the engine's rules; called after each change (debounced) and before saving. */
  validate: (item: Item) => Promise<ItemValidation>;
  /** Write the item (after the user confirmed). */
  onSave: (item: Item) => void;
  onCancel: () => void;
  /** The connection is read-only: every write control is disabled. */
  readOnly?: boolean;
  /** A save is in flight. */
  saving?: boolean;
  /** The last save failed with this exception. */
  saveError?: SaveError | null;
  /**
   * Duplicating this item: its attributes are the start, and the key must be changed (the same key
   * would replace the item duplicated, or fail the put's attribute_not_exists condition).
   */
  duplicateOf?: Item | null;
  /** The mode to open in. Default "form". */
  defaultMode?: EditorMode;
  /** Delay between the last change and `validate`. Default 250 ms. */
  validateDelayMs?: number;
  /** Told whether the item as edited differs from the one the editor opened with. */
  onDirtyChange?: (dirty: boolean) => void;
  /**
   * Told the item as it stands once the engine has checked it and no problem is known of it (what
   * Save would write; the write estimate is of it), and null as soon as it has one, or cannot be
   * read.
   */
  onWritableChange?: (item: Item | null) => void;
};

/** DynamoDB's maximum item size: 400 KB, names and values included (rule B.7, docs/dynamodb-rules.md). */
export const MAX_ITEM_BYTES = 400 * 1024;
const TOO_LARGE = "The item is too large: DynamoDB items are at most 400 KB, names included.";

const MODES: { mode: EditorMode; label: string }[] = [
  { mode: "form", label: "Form" },
  { mode: "plain", label: "JSON" },
  { mode: "dynamo", label: "DynamoDB JSON" },
];

type Parsed = { ok: true; item: Item } | { ok: false; problems: TextProblem[] };

/** The attribute a problem path is about: "driver.shifts[0]" → "driver". */
function rootOf(path: string): string {
  return path.split(/[.[]/)[0] ?? path;
}

/** A problem said away from its attribute's row (beside Save): its attribute named first. */
function namedProblem(problem: TextProblem): string {
  return problem.path === "" || problem.message.startsWith(`${problem.path} `) ? problem.message : `${problem.path}: ${problem.message}`;
}

function withKeyRows(rows: FormRow[], keys: KeySchema): FormRow[] {
  const missing = keyAttributes(keys).filter((k) => !rows.some((r) => r.name === k.name));
  const added = missing.map((k) => ({ id: newRowId(), name: k.name, type: k.type as AttributeType, text: "" }));
  const keyNames = keyAttributes(keys).map((k) => k.name);
  const all = [...added, ...rows];
  return [...keyNames.flatMap((n) => all.filter((r) => r.name === n)), ...all.filter((r) => !keyNames.includes(r.name))];
}

export function ItemEditor({
  keys,
  item,
  existing,
  validate,
  onSave,
  onCancel,
  readOnly = false,
  saving = false,
  saveError = null,
  defaultMode = "form",
  validateDelayMs = 250,
  duplicateOf = null,
  onDirtyChange,
  onWritableChange,
}: ItemEditorProps) {
  const original = useMemo(() => item ?? {}, [item]);
  const keyNames = useMemo(() => keyAttributes(keys).map((k) => k.name), [keys]);
  const [mode, setMode] = useState<EditorMode>(defaultMode);
  const [rows, setRows] = useState<FormRow[]>(() => withKeyRows(itemToRows(original, keyNames), keys));
  const [text, setText] = useState(() => (defaultMode === "dynamo" ? formatDynamoJson(original) : formatPlainJson(original)));
  const [hints, setHints] = useState<Item>(original);
  const [switchError, setSwitchError] = useState<string | null>(null);
  const [validation, setValidation] = useState<{ signature: string; result: ItemValidation } | null>(null);
  const [validateError, setValidateError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Item | null>(null);
  const id = useId();
  const focusRowName = useRef<number | null>(null);
  const sequence = useRef(0);
  // The latest `validate`, so a new function identity on each parent render does not re-run checks.
  const validateRef = useRef(validate);
  validateRef.current = validate;

  const formResult = useMemo(() => rowsToItem(rows), [rows]);
  const parsed: Parsed = useMemo(() => {
    if (mode === "form") {
      return formResult.problems.size === 0 ? { ok: true, item: formResult.item } : { ok: false, problems: rowProblems(rows, formResult.problems) };
    }
    const result = mode === "plain" ? parsePlainJson(text, hints) : parseDynamoJson(text);
    return result.ok ? { ok: true, item: result.value } : { ok: false, problems: [result.problem] };
  }, [mode, formResult, rows, text, hints]);

  const localProblems: TextProblem[] = useMemo(() => {
    if (!parsed.ok) return parsed.problems;
    const unchangedKey =
      duplicateOf !== null && !existing && keyChangeProblems(keys, duplicateOf, parsed.item).length === 0
        ? [{ path: "", message: `Change the key (${keyNames.join(", ")}): this is the key of the item duplicated.` }]
        : [];
    return [...keyProblems(keys, parsed.item), ...(existing ? keyChangeProblems(keys, original, parsed.item) : []), ...unchangedKey];
  }, [parsed, keys, existing, original, duplicateOf, keyNames]);

  const signature = parsed.ok ? JSON.stringify(parsed.item) : null;
  // Unsaved edits: the user changed something, and the item is not the one the editor opened with
  // (text that does not parse counts as changed). Switching modes alone changes nothing.
  const [openedSignature] = useState(signature);
  const [touched, setTouched] = useState(false);
  const dirty = touched && (signature === null || signature !== openedSignature);
  const dirtyRef = useRef(onDirtyChange);
  dirtyRef.current = onDirtyChange;
  useEffect(() => dirtyRef.current?.(dirty), [dirty]);
  const engine = validation !== null && validation.signature === signature ? validation.result : null;

  // Ask the engine about the item a moment after the last change.
  useEffect(() => {
    if (signature === null || !parsed.ok) return;
    const candidate = parsed.item;
    const run = ++sequence.current;
    const timer = setTimeout(() => {
      validateRef.current(candidate).then(
        (result) => {
          if (run === sequence.current) {
            setValidation({ signature, result });
            setValidateError(null);
          }
        },
        (err: unknown) => run === sequence.current && setValidateError(`The item could not be checked: ${String(err)}`),
      );
    }, validateDelayMs);
    return () => clearTimeout(timer);
    // `parsed` changes exactly when `signature` does.
  }, [signature, validateDelayMs]);

  useEffect(() => {
    if (focusRowName.current === null) return;
    document.getElementById(`${id}-name-${focusRowName.current}`)?.focus();
    focusRowName.current = null;
  }, [rows, id]);

  // The engine checks the key too: what the editor already says of an attribute is not said twice.
  const localPaths = new Set(localProblems.map((p) => p.path).filter((path) => path !== ""));
  const problems = [...localProblems, ...(engine?.problems ?? []).filter((p) => !localPaths.has(p.path))];
  // A key left blank is pointed out at its row once the user edits the item, not as soon as a new
  // item opens (Save, off, says it meanwhile).
  const blankKey = (p: TextProblem) => {
    if (!parsed.ok || !keyNames.includes(p.path)) return false;
    const value = parsed.item[p.path];
    return value === undefined || ("S" in value && value.S === "") || ("B" in value && value.B === "");
  };
  const visibleProblems = touched ? problems : problems.filter((p) => !blankKey(p));
  // Save is off while the item could not be written: the first problem found here or by the engine
  // (for the item as it is now), or a size over 400 KB (B.1). An item the engine has not checked
  // yet does not hold Save back: saving checks it first.
  const tooLarge = engine !== null && engine.sizeBytes !== null && engine.sizeBytes > MAX_ITEM_BYTES;
  const itemProblem = problems[0] !== undefined ? namedProblem(problems[0]) : tooLarge ? TOO_LARGE : null;
  const saveBlocker = readOnly ? null : itemProblem;
  const blockedId = `${id}-save-blocked`;
  // The item told to `onWritableChange`: null at once when a problem is known, the item once the
  // engine found none in it (once per pause in the typing); while it checks, the last one stands.
  const writable = !parsed.ok || itemProblem !== null ? null : engine !== null ? parsed.item : undefined;
  const writableKey = writable === undefined ? "checking" : writable === null ? "none" : signature;
  const writableRef = useRef(onWritableChange);
  writableRef.current = onWritableChange;
  useEffect(() => {
    if (writable !== undefined) writableRef.current?.(writable);
    // `writable` changes exactly when `writableKey` does.
  }, [writableKey]);

  const switchTo = (next: EditorMode) => {
    if (next === mode) return;
    if (!parsed.ok) {
      setSwitchError(`Fix this before switching: ${parsed.problems[0]?.message ?? "the item cannot be read."}`);
      return;
    }
    setSwitchError(null);
    const current = parsed.item;
    setHints(current);
    if (next === "form") setRows(withKeyRows(itemToRows(current, keyNames), keys));
    else setText(next === "plain" ? formatPlainJson(current) : formatDynamoJson(current));
    setMode(next);
  };

  const save = async () => {
    if (readOnly || !parsed.ok || localProblems.length > 0) return;
    const candidate = parsed.item;
    const run = ++sequence.current;
    let result: ItemValidation;
    try {
      result = await validateRef.current(candidate);
    } catch (err) {
      setValidateError(`The item could not be checked: ${String(err)}`);
      return;
    }
    if (run === sequence.current) setValidation({ signature: JSON.stringify(candidate), result });
    if (result.problems.length === 0 && (result.sizeBytes ?? 0) <= MAX_ITEM_BYTES) setConfirming(candidate);
  };

  const updateRow = (rowId: number, change: Partial<FormRow>) => {
    setTouched(true);
    setRows((all) => all.map((r) => (r.id === rowId ? { ...r, ...change } : r)));
  };

  const rowProblemText = (row: FormRow): string | undefined => {
    const own = formResult.problems.get(row.id);
    if (own !== undefined) return touched || row.text !== "" || !keyNames.includes(row.name) ? own : undefined;
    const about = visibleProblems.filter((p) => p.path !== "" && rootOf(p.path) === row.name);
    return about.length > 0 ? about.map((p) => p.message).join(" ") : undefined;
  };
  const generalProblems =
    mode === "form" ? visibleProblems.filter((p) => p.path === "" || !rows.some((r) => r.name === rootOf(p.path))) : visibleProblems;

  const verb = existing ? "Save" : "Create";
  const keyText = describeKey(keys, confirming ?? (parsed.ok ? parsed.item : original));

  return (
    <section className="item-editor" aria-label={existing ? `Edit item ${describeKey(keys, original)}` : duplicateOf !== null ? `Duplicate of ${describeKey(keys, duplicateOf)}` : "New item"}>
      <header className="ie-header">
        <h2>{existing ? "Edit item" : "New item"}</h2>
        <div role="radiogroup" aria-label="Edit as" className="ie-modes">
          {MODES.map((m) => (
            <label key={m.mode} className={`ie-mode${m.mode === mode ? " ie-mode-active" : ""}`}>
              <input type="radio" name={`${id}-mode`} checked={m.mode === mode} onChange={() => switchTo(m.mode)} />
              {m.label}
            </label>
          ))}
        </div>
      </header>
      {readOnly && (
        <p className="ie-readonly" role="note">
          This connection is read-only: items can be viewed but not changed.
        </p>
      )}
      {switchError !== null && (
        <p className="field-error" role="alert">
          {switchError}
        </p>
      )}

      <div className="ie-body">
        <div className="ie-main">
          {mode === "form" ? (
            <FormView
              id={id}
              rows={rows}
              keyNames={keyNames}
              existing={existing}
              readOnly={readOnly}
              problemFor={rowProblemText}
              onChange={updateRow}
              onRemove={(rowId) => {
                setTouched(true);
                setRows((all) => all.filter((r) => r.id !== rowId));
              }}
              onAdd={() => {
                const row: FormRow = { id: newRowId(), name: "", type: "S", text: "" };
                setTouched(true);
                focusRowName.current = row.id;
                setRows((all) => [...all, row]);
              }}
            />
          ) : (
            <textarea
              className="ie-text"
              aria-label={mode === "plain" ? "Item as JSON" : "Item as DynamoDB JSON"}
              aria-describedby={`${id}-problems`}
              aria-invalid={!parsed.ok}
              spellCheck={false}
              readOnly={readOnly}
              value={text}
              rows={18}
              onChange={(e) => {
                setTouched(true);
                setText(e.target.value);
              }}
            />
          )}
        </div>
        <aside className="ie-side" aria-label="Checks">
          <SizeMeter validation={engine} />
          {validateError !== null && <p className="field-error">{validateError}</p>}
          <div id={`${id}-problems`}>
            {generalProblems.length > 0 ? (
              <ul className="ie-problems" aria-label="Problems">
                {generalProblems.map((p, i) => (
                  <li key={i} className="field-error">
                    {p.message}
                  </li>
                ))}
              </ul>
            ) : (
              parsed.ok && engine !== null && problems.length === 0 && <p className="ie-ok">No problems found.</p>
            )}
          </div>
        </aside>
      </div>

      {confirming !== null ? (
        <ConfirmPanel
          question={`${verb} item ${keyText}?`}
          confirmLabel={verb}
          busy={saving}
          onConfirm={() => {
            onSave(confirming);
            setConfirming(null);
          }}
          onCancel={() => setConfirming(null)}
        />
      ) : (
        <footer className="ie-actions">
          <button
            type="button"
            className="primary"
            disabled={readOnly || saving || saveBlocker !== null}
            aria-describedby={saveBlocker !== null ? blockedId : undefined}
            onClick={() => void save()}
          >
            {saving ? "Saving…" : verb}
          </button>
          <button type="button" onClick={onCancel}>
            {readOnly ? "Close" : "Cancel"}
          </button>
          {saveBlocker !== null && (
            <p id={blockedId} className="muted ie-save-blocked" data-testid="item-save-blocked">
              {verb} is off until this is fixed: {saveBlocker}
            </p>
          )}
          {saveError !== null && (
            <p className="field-error ie-save-error" role="alert">
              The item was not saved: {saveError.message}
              {saveError.name !== "" && (
                <>
                  {" "}
                  <code>{saveError.name}</code>
                </>
              )}
            </p>
          )}
        </footer>
      )}
    </section>
  );
}

function SizeMeter({ validation }: { validation: ItemValidation | null }) {
  if (validation === null) return <p className="muted ie-size">Size: checking…</p>;
  const { sizeBytes } = validation;
  if (sizeBytes === null) {
    return (
      <p className="muted ie-size" data-testid="item-size-unknown">
        Size: not known until every value is valid.
      </p>
    );
  }
  const over = sizeBytes > MAX_ITEM_BYTES;
  const text = `${byteCountLabel(sizeBytes)} of 400 KB`;
  return (
    <div className={`ie-size${over ? " ie-size-over" : ""}`}>
      <div
        role="meter"
        aria-label="Item size"
        aria-valuemin={0}
        aria-valuemax={MAX_ITEM_BYTES}
        aria-valuenow={Math.min(sizeBytes, MAX_ITEM_BYTES)}
        aria-valuetext={text}
        className="ie-meter"
      >
        <span className="ie-meter-fill" style={{ width: `${Math.min(100, (sizeBytes / MAX_ITEM_BYTES) * 100)}%` }} />
      </div>
      <span className="ie-size-text">{text}</span>
      {over && <p className="field-error">{TOO_LARGE}</p>}
    </div>
  );
}

function FormView(props: {
  id: string;
  rows: FormRow[];
  keyNames: string[];
  existing: boolean;
  readOnly: boolean;
  problemFor: (row: FormRow) => string | undefined;
  onChange: (rowId: number, change: Partial<FormRow>) => void;
  onRemove: (rowId: number) => void;
  onAdd: () => void;
}) {
  const { id, rows, keyNames, existing, readOnly } = props;
  return (
    <div className="ie-form">
      <div className="ie-form-head" aria-hidden="true">
        <span>Name</span>
        <span>Type</span>
        <span>Value</span>
      </div>
      <ul className="ie-rows" aria-label="Attributes">
        {rows.map((row) => {
          const isKey = keyNames.includes(row.name) && rows.find((r) => r.name === row.name) === row;
          const valueLocked = readOnly || (isKey && existing);
          const problem = props.problemFor(row);
          const problemId = `${id}-problem-${row.id}`;
          const label = row.name === "" ? "new attribute" : row.name;
          return (
            <li key={row.id} className={`ie-row${isKey ? " ie-key-row" : ""}`}>
              <input
                id={`${id}-name-${row.id}`}
                aria-label={`Name of ${label}`}
                value={row.name}
                readOnly={readOnly || isKey}
                onChange={(e) => props.onChange(row.id, { name: e.target.value })}
              />
              <select
                aria-label={`Type of ${label}`}
                value={row.type}
                disabled={readOnly || isKey}
                onChange={(e) => {
                  const type = e.target.value as AttributeType;
                  props.onChange(row.id, { type, text: retypeText(row, type) });
                }}
              >
                {ATTRIBUTE_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t} · {typeName(t)}
                  </option>
                ))}
              </select>
              <ValueInput
                row={row}
                label={`Value of ${label}`}
                locked={valueLocked}
                describedBy={problem !== undefined ? problemId : undefined}
                onChange={(text) => props.onChange(row.id, { text })}
              />
              {isKey ? (
                <span className="ie-key-badge" title={existing ? "Key attributes of an existing item cannot be changed" : "Key attributes are required"}>
                  key
                </span>
              ) : (
                <button type="button" className="ie-remove" aria-label={`Remove ${label}`} disabled={readOnly} onClick={() => props.onRemove(row.id)}>
                  Remove
                </button>
              )}
              {problem !== undefined && (
                <span id={problemId} className="field-error ie-row-problem">
                  {problem}
                </span>
              )}
            </li>
          );
        })}
      </ul>
      <button type="button" onClick={props.onAdd} disabled={readOnly}>
        Add attribute
      </button>
    </div>
  );
}

function ValueInput({
  row,
  label,
  locked,
  describedBy,
  onChange,
}: {
  row: FormRow;
  label: string;
  locked: boolean;
  describedBy: string | undefined;
  onChange: (text: string) => void;
}) {
  const common = { "aria-label": label, "aria-describedby": describedBy, "aria-invalid": describedBy !== undefined, spellCheck: false };
  switch (row.type) {
    case "BOOL":
      return (
        <select {...common} value={row.text === "true" ? "true" : "false"} disabled={locked} onChange={(e) => onChange(e.target.value)}>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      );
    case "NULL":
      return <span className="muted ie-null">null</span>;
    case "SS":
    case "NS":
    case "BS":
    case "M":
    case "L":
      return (
        <textarea
          {...common}
          className={row.type === "M" || row.type === "L" ? "ie-json" : undefined}
          placeholder={row.type === "M" || row.type === "L" ? "DynamoDB JSON" : "one value per line"}
          rows={Math.min(8, Math.max(2, row.text.split("\n").length))}
          readOnly={locked}
          value={row.text}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    default:
      return <input {...common} readOnly={locked} value={row.text} onChange={(e) => onChange(e.target.value)} />;
  }
}
