/**
 * The Query form: which table or index, the partition-key value, a sort-key condition with exactly
 * DynamoDB's legal operators, direction, Limit, consistency, projection and filter. It only builds
 * a `QueryInput`; running it is the caller's business (`onRun`).
 *
 * DynamoDB's rules it enforces before sending (rules B.5 and B.4, docs/dynamodb-rules.md):
 * - the partition key takes only `=`; the sort key takes =, <, <=, >, >=, BETWEEN and begins_with,
 *   and begins_with only on a string or binary sort key;
 * - key values are of the key's type, and a string or binary key value cannot be empty;
 * - BETWEEN needs its lower bound not above its upper bound (ValidationException otherwise);
 * - Limit is a whole number of at least 1;
 * - global secondary indexes support only eventually consistent reads.
 */
import { useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import type { AttributeValue, IndexSummary, KeyAttribute, KeySchema, QueryInput, ScalarType, SortKeyCondition } from "./model";
import { attributeText, compareKeyValues, isBase64, isNumberText, scalarText, scalarValue } from "../items/attributeValue";
import { matchesShortcut } from "../../app/shortcuts";
import "./QueryControls.css";

export type SortOperator = SortKeyCondition["op"];

/** The sort-key operators, as DynamoDB writes them, in the order the picker offers them. */
export const SORT_OPERATORS: readonly { op: SortOperator; label: string }[] = [
  { op: "eq", label: "=" },
  { op: "lt", label: "<" },
  { op: "le", label: "<=" },
  { op: "gt", label: ">" },
  { op: "ge", label: ">=" },
  { op: "between", label: "BETWEEN" },
  { op: "beginsWith", label: "begins_with" },
];

/** The operators legal on a sort key of this type: begins_with only for S and B. */
export function operatorsFor(type: ScalarType): SortOperator[] {
  return SORT_OPERATORS.map((o) => o.op).filter((op) => op !== "beginsWith" || type !== "N");
}

export type QueryControlsProps = {
  /** The table queried. */
  table: string;
  /** The table's key schema. */
  keys: KeySchema;
  /** The table's indexes; any of them can be queried instead of the table. */
  indexes: IndexSummary[];
  /** Partition-key values to suggest (e.g. from collection statistics) for the table or index picked. */
  suggestions: AttributeValue[];
  /** Run the query. `exclusiveStartKey` is always null: paging is the caller's. */
  onRun: (input: QueryInput) => void;
  /** The user picked another index (null = the table), e.g. to fetch suggestions for it. */
  onIndexChange?: (index: string | null) => void;
  /** A query is running: the Run button is disabled. */
  busy?: boolean;
  /** Values to start from (e.g. the query a tab last ran). */
  initial?: QueryInput | null;
  /** The last run failed: shown as a sentence beside the field it is about, or beside Run. */
  error?: QueryError | null;
};

/** A failed run as DynamoDB reported it (e.g. a ValidationException about the filter). */
export type QueryError = {
  /** The exception name, e.g. "ValidationException". */
  name: string;
  message: string;
  /** The input the error is about, or null when it is about the query as a whole. */
  field: "partitionValue" | "sortCondition" | "limit" | "projection" | "filter" | null;
};

type Fields = {
  pk: string;
  op: SortOperator | "";
  sk: string;
  skHigh: string;
  descending: boolean;
  limit: string;
  consistent: boolean;
  projection: string;
  filter: string;
};

type FieldName = "pk" | "sk" | "skHigh" | "limit";
type Errors = Partial<Record<FieldName, string>>;

function fieldsFrom(initial: QueryInput | null | undefined): Fields {
  const condition = initial?.sortCondition ?? null;
  return {
    pk: initial ? (scalarText(initial.partitionValue) ?? "") : "",
    op: condition?.op ?? "",
    sk: condition === null ? "" : (scalarText(condition.op === "between" ? condition.low : condition.value) ?? ""),
    skHigh: condition?.op === "between" ? (scalarText(condition.high) ?? "") : "",
    descending: initial ? !initial.scanIndexForward : false,
    limit: initial?.limit != null ? String(initial.limit) : "",
    consistent: initial?.consistentRead ?? false,
    projection: initial?.projection ?? "",
    filter: initial?.filter ?? "",
  };
}

/** The problem with a key value typed as text, in a sentence, or null. */
export function keyValueProblem(key: KeyAttribute, text: string): string | null {
  if (text === "") return `Enter a value for ${key.name}.`;
  if (key.type === "N" && !isNumberText(text)) return `${key.name} is a number: "${text}" is not one. Write it like 42 or -3.5.`;
  if (key.type === "B" && !isBase64(text)) return `${key.name} is binary: write it as base64, like AAEC or SGVsbG8=.`;
  return null;
}

const typeWord: Record<ScalarType, string> = { S: "string", N: "number", B: "binary, base64" };

export function QueryControls({
  table,
  keys,
  indexes,
  suggestions,
  onRun,
  onIndexChange,
  busy = false,
  initial = null,
  error = null,
}: QueryControlsProps) {
  const [index, setIndex] = useState<string | null>(initial?.index ?? null);
  const [fields, setFields] = useState<Fields>(() => fieldsFrom(initial));
  const [submitted, setSubmitted] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();

  const picked = index === null ? null : (indexes.find((i) => i.name === index) ?? null);
  const active: KeySchema = picked?.keys ?? keys;
  const sortKey = active.sortKey;
  const isGlobal = picked?.kind === "global";
  const set = <K extends keyof Fields>(name: K, value: Fields[K]) => setFields((f) => ({ ...f, [name]: value }));

  const errors = useMemo(() => validate(fields, active), [fields, active]);
  // Number and binary mistakes show as soon as they are typed; missing values once Run was pressed.
  const shown = (name: FieldName): string | undefined => {
    const error = errors[name];
    if (error === undefined) return undefined;
    const value = fields[name];
    return submitted || value !== "" ? error : undefined;
  };

  const pickIndex = (name: string | null) => {
    const next = name === null ? keys : (indexes.find((i) => i.name === name)?.keys ?? keys);
    setIndex(name);
    setFields((f) => ({
      ...f,
      pk: next.partitionKey.name === active.partitionKey.name && next.partitionKey.type === active.partitionKey.type ? f.pk : "",
      sk: next.sortKey?.name === sortKey?.name && next.sortKey?.type === sortKey?.type ? f.sk : "",
      skHigh: next.sortKey?.name === sortKey?.name && next.sortKey?.type === sortKey?.type ? f.skHigh : "",
      op: next.sortKey === null || (f.op === "beginsWith" && next.sortKey.type === "N") ? "" : f.op,
      consistent: indexes.find((i) => i.name === name)?.kind === "global" ? false : f.consistent,
    }));
    onIndexChange?.(name);
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    setSubmitted(true);
    const firstBad = (["pk", "sk", "skHigh", "limit"] as const).find((name) => errors[name] !== undefined);
    if (firstBad !== undefined) {
      formRef.current?.querySelector<HTMLElement>(`[data-field="${firstBad}"]`)?.focus();
      return;
    }
    if (busy) return;
    onRun(buildInput(table, index, active, fields, isGlobal));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (matchesShortcut("run-query", event.nativeEvent)) {
      // Handled here: a window-wide binding of the same shortcut must not run it twice.
      event.preventDefault();
      event.stopPropagation();
      submit();
    }
  };

  const serverError = (field: QueryError["field"]) => (error !== null && error.field === field ? error : null);
  const errorText = (e: QueryError) => `${e.message} (${e.name})`;
  const withServer = (local: string | undefined, field: QueryError["field"]) => {
    const server = serverError(field);
    return local ?? (server === null ? undefined : errorText(server));
  };

  const pkSuggestions = suggestions.filter((v) => active.partitionKey.type in v);
  const listId = `${id}-suggestions`;
  const operators = sortKey === null ? [] : SORT_OPERATORS.filter((o) => operatorsFor(sortKey.type).includes(o.op));

  return (
    <form ref={formRef} className="query-controls" aria-label={`Query ${table}`} onSubmit={submit} onKeyDown={onKeyDown} noValidate>
      <div className="qc-row">
        <label className="qc-field">
          <span className="qc-label">Table or index</span>
          <select value={index ?? ""} onChange={(e) => pickIndex(e.target.value === "" ? null : e.target.value)}>
            <option value="">Table {table} ({keyList(keys)})</option>
            {indexes.map((i) => (
              <option key={i.name} value={i.name}>
                {i.kind === "global" ? "GSI" : "LSI"} {i.name} ({keyList(i.keys)})
              </option>
            ))}
          </select>
        </label>
        <KeyInput
          id={`${id}-pk`}
          field="pk"
          label={active.partitionKey.name}
          hint={`= · ${typeWord[active.partitionKey.type]}`}
          value={fields.pk}
          onChange={(v) => set("pk", v)}
          error={withServer(shown("pk"), "partitionValue")}
          list={pkSuggestions.length > 0 ? listId : undefined}
        />
        <datalist id={listId}>
          {pkSuggestions.map((v, i) => (
            <option key={i} value={scalarText(v) ?? attributeText(v)} />
          ))}
        </datalist>
        {sortKey !== null && (
          <label className="qc-field qc-op">
            <span className="qc-label">{sortKey.name} condition</span>
            <select aria-label={`Sort key condition on ${sortKey.name}`} value={fields.op} onChange={(e) => set("op", e.target.value as Fields["op"])}>
              <option value="">(any {sortKey.name})</option>
              {operators.map((o) => (
                <option key={o.op} value={o.op}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
        )}
        {sortKey !== null && fields.op !== "" && (
          <KeyInput
            id={`${id}-sk`}
            field="sk"
            label={fields.op === "between" ? `${sortKey.name} from` : sortKey.name}
            hint={typeWord[sortKey.type]}
            value={fields.sk}
            onChange={(v) => set("sk", v)}
            error={withServer(shown("sk"), "sortCondition")}
          />
        )}
        {sortKey !== null && fields.op === "between" && (
          <KeyInput
            id={`${id}-sk-high`}
            field="skHigh"
            label={`${sortKey.name} to`}
            hint={typeWord[sortKey.type]}
            value={fields.skHigh}
            onChange={(v) => set("skHigh", v)}
            error={shown("skHigh")}
          />
        )}
      </div>

      <div className="qc-row qc-options">
        <label className="qc-check">
          <input type="checkbox" checked={fields.descending} onChange={(e) => set("descending", e.target.checked)} />
          Newest / highest first
        </label>
        <KeyInput
          id={`${id}-limit`}
          field="limit"
          label="Limit"
          hint="items evaluated per page, optional"
          value={fields.limit}
          onChange={(v) => set("limit", v)}
          error={withServer(shown("limit"), "limit")}
        />
        <label className="qc-check">
          <input
            type="checkbox"
            checked={fields.consistent && !isGlobal}
            disabled={isGlobal}
            aria-describedby={isGlobal ? `${id}-consistent-note` : undefined}
            onChange={(e) => set("consistent", e.target.checked)}
          />
          Strongly consistent read
        </label>
        {isGlobal && (
          <span id={`${id}-consistent-note`} className="muted qc-note">
            Global secondary indexes only support eventually consistent reads.
          </span>
        )}
      </div>

      <div className="qc-row">
        <ExpressionInput
          id={`${id}-projection`}
          label="Projection"
          placeholder="all attributes, or e.g. plate, speedKph"
          value={fields.projection}
          onChange={(v) => set("projection", v)}
          error={serverError("projection")}
        />
        <ExpressionInput
          id={`${id}-filter`}
          label="Filter"
          placeholder="e.g. speedKph > 80"
          value={fields.filter}
          onChange={(v) => set("filter", v)}
          error={serverError("filter")}
        />
      </div>

      <div className="qc-row qc-run">
        <button type="submit" className="primary" disabled={busy} aria-keyshortcuts="Control+Enter Meta+Enter">
          {busy ? "Running…" : "Run query"}
        </button>
        {serverError(null) !== null && (
          <span className="field-error" role="alert">
            {error!.message} <code>{error!.name}</code>
          </span>
        )}
      </div>
    </form>
  );
}

function KeyInput(props: {
  id: string;
  field: FieldName;
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  list?: string | undefined;
}) {
  const errorId = `${props.id}-error`;
  return (
    <div className="qc-field">
      <label className="qc-label" htmlFor={props.id}>
        {props.label} <span className="muted">({props.hint})</span>
      </label>
      <input
        id={props.id}
        data-field={props.field}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        list={props.list}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={props.error !== undefined}
        aria-describedby={props.error !== undefined ? errorId : undefined}
      />
      {props.error !== undefined && (
        <span id={errorId} className="field-error" role="alert">
          {props.error}
        </span>
      )}
    </div>
  );
}

function ExpressionInput(props: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  error: QueryError | null;
}) {
  const errorId = `${props.id}-error`;
  return (
    <div className="qc-field qc-wide">
      <label className="qc-label" htmlFor={props.id}>
        {props.label}
      </label>
      <input
        id={props.id}
        placeholder={props.placeholder}
        value={props.value}
        spellCheck={false}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={props.error !== null}
        aria-describedby={props.error !== null ? errorId : undefined}
      />
      {props.error !== null && (
        <span id={errorId} className="field-error" role="alert">
          {props.error.message} <code>{props.error.name}</code>
        </span>
      )}
    </div>
  );
}

function keyList(keys: KeySchema): string {
  return keys.sortKey === null ? keys.partitionKey.name : `${keys.partitionKey.name}, ${keys.sortKey.name}`;
}

function validate(fields: Fields, keys: KeySchema): Errors {
  const errors: Errors = {};
  const pk = keyValueProblem(keys.partitionKey, fields.pk);
  if (pk !== null) errors.pk = pk;
  const sortKey = keys.sortKey;
  if (sortKey !== null && fields.op !== "") {
    const low = keyValueProblem(sortKey, fields.sk);
    if (low !== null) errors.sk = low;
    if (fields.op === "between") {
      const high = keyValueProblem(sortKey, fields.skHigh);
      if (high !== null) errors.skHigh = high;
      else if (low === null && compareKeyValues(scalarValue(sortKey.type, fields.sk), scalarValue(sortKey.type, fields.skHigh)) > 0) {
        errors.skHigh = "BETWEEN needs the upper bound to be greater than or equal to the lower bound.";
      }
    }
  }
  if (fields.limit.trim() !== "" && !/^\d+$/.test(fields.limit.trim())) errors.limit = "Limit must be a whole number of 1 or more.";
  else if (fields.limit.trim() !== "" && Number(fields.limit) < 1) errors.limit = "Limit must be a whole number of 1 or more.";
  return errors;
}

function buildInput(table: string, index: string | null, keys: KeySchema, fields: Fields, isGlobal: boolean): QueryInput {
  const sortKey = keys.sortKey;
  let sortCondition: SortKeyCondition | null = null;
  if (sortKey !== null && fields.op !== "") {
    const low = scalarValue(sortKey.type, fields.sk);
    sortCondition =
      fields.op === "between" ? { op: "between", low, high: scalarValue(sortKey.type, fields.skHigh) } : { op: fields.op, value: low };
  }
  const text = (s: string) => (s.trim() === "" ? null : s.trim());
  return {
    table,
    index,
    partitionValue: scalarValue(keys.partitionKey.type, fields.pk),
    sortCondition,
    scanIndexForward: !fields.descending,
    limit: fields.limit.trim() === "" ? null : Number(fields.limit.trim()),
    consistentRead: fields.consistent && !isGlobal,
    projection: text(fields.projection),
    filter: text(fields.filter),
    filterNames: null,
    filterValues: null,
    exclusiveStartKey: null,
  };
}
