import type { AttributeValueJson, KeyConditionState, KeySchemaState, SortKeyOperator } from "../../ipc/bindings.gen";
import { ValueInput } from "./ValueInput";
import { emptyValue } from "./model";
import { useOperators } from "./useOperators";

const LABELS: Record<SortKeyOperator, string> = {
  "=": "=",
  "<": "<",
  "<=": "<=",
  ">": ">",
  ">=": ">=",
  BETWEEN: "BETWEEN",
  begins_with: "begins_with",
};

type SortChoice = SortKeyOperator | "none";

function sortChoice(state: KeyConditionState): SortChoice {
  const sort = state.sort;
  if (!sort) return "none";
  if (sort.type === "between") return "BETWEEN";
  if (sort.type === "beginsWith") return "begins_with";
  return sort.op as SortKeyOperator;
}

/** The sort-key half for an operator, keeping the value typed so far. */
function sortFor(op: SortChoice, name: string, previous: KeyConditionState["sort"], empty: AttributeValueJson): KeyConditionState["sort"] {
  const first = !previous
    ? empty
    : previous.type === "between"
      ? previous.low
      : previous.type === "beginsWith"
        ? previous.prefix
        : previous.value;
  switch (op) {
    case "none":
      return null;
    case "BETWEEN":
      return { type: "between", name, low: first, high: previous?.type === "between" ? previous.high : first };
    case "begins_with":
      return { type: "beginsWith", name, prefix: first };
    default:
      return { type: "compare", name, op, value: first };
  }
}

/** A fresh key condition on a key schema (a value for every partition-key attribute, rule B.18). */
export function emptyKeyCondition(schema: KeySchemaState): KeyConditionState {
  const condition: KeyConditionState = { partitionKey: schema.partitionKey.name, partitionValue: emptyValue(schema.partitionKey.type), sort: null };
  const more = schema.morePartitionKeys ?? [];
  if (more.length > 0) condition.morePartition = more.map((k) => ({ name: k.name, value: emptyValue(k.type) }));
  return condition;
}

type KeyType = "S" | "N" | "B";

/**
 * A KeyConditionExpression for the table or the chosen index: the partition key with `=` and a
 * typed value, and the sort-key operators DynamoDB allows for the sort key's type, as the backend
 * answers them (rule B.5: no `<>`, no OR, begins_with on S and B only). On a multi-attribute GSI
 * key (rule B.18.5) every partition-key attribute has its `=` row, and the sort-key attributes go
 * left to right: a row for the next one appears once the one before holds `=`.
 */
export function KeyConditionBuilder({
  schema,
  condition,
  onChange,
}: {
  schema: KeySchemaState;
  condition: KeyConditionState;
  onChange: (condition: KeyConditionState) => void;
}) {
  const sortKeys = schema.sortKey ? [schema.sortKey, ...(schema.moreSortKeys ?? [])] : [];
  const operators = useOperators(sortKeys.map((k) => k.type));
  const keyTypes = (t: KeyType) => [t] as const;
  const morePartition = schema.morePartitionKeys ?? [];
  const held = condition.sortEqual ?? [];
  const active = sortKeys[held.length] ?? null;
  const choice = sortChoice(condition);
  const next = choice === "=" ? (sortKeys[held.length + 1] ?? null) : null;

  const setMorePartition = (i: number, value: AttributeValueJson) => {
    const values = morePartition.map((k, j) => condition.morePartition?.[j] ?? { name: k.name, value: emptyValue(k.type) });
    values[i] = { name: morePartition[i]!.name, value };
    onChange({ ...condition, morePartition: values });
  };
  const withHeld = (sortEqual: typeof held, sort: KeyConditionState["sort"]): KeyConditionState => {
    const changed: KeyConditionState = { ...condition, sort };
    if (sortEqual.length > 0) changed.sortEqual = sortEqual;
    else delete changed.sortEqual;
    return changed;
  };

  return (
    <div className="key-condition" role="group" aria-label="Key condition">
      <div className="key-condition-row">
        <span className="key-name">{schema.partitionKey.name}</span>
        <span aria-hidden="true">=</span>
        <ValueInput
          label={`${schema.partitionKey.name} value`}
          value={condition.partitionValue}
          types={keyTypes(schema.partitionKey.type)}
          onChange={(partitionValue) => onChange({ ...condition, partitionKey: schema.partitionKey.name, partitionValue })}
        />
      </div>
      {morePartition.map((key, i) => (
        <div className="key-condition-row" key={key.name}>
          <span className="key-name">{key.name}</span>
          <span aria-hidden="true">=</span>
          <ValueInput
            label={`${key.name} value`}
            value={condition.morePartition?.[i]?.value ?? emptyValue(key.type)}
            types={keyTypes(key.type)}
            onChange={(value) => setMorePartition(i, value)}
          />
        </div>
      ))}
      {held.map((equal, j) => {
        const key = sortKeys[j]!;
        return (
          <div className="key-condition-row" key={key.name}>
            <span className="key-name">{key.name}</span>
            <select
              aria-label={`${key.name} operator`}
              value="="
              onChange={(e) =>
                onChange(withHeld(held.slice(0, j), sortFor(e.target.value as SortChoice, key.name, { type: "compare", name: key.name, op: "=", value: equal.value }, emptyValue(key.type))))
              }
            >
              <option value="none">any</option>
              {(operators[key.type] ?? []).map((op) => (
                <option key={op} value={op}>
                  {LABELS[op]}
                </option>
              ))}
            </select>
            <ValueInput
              label={`${key.name} value`}
              value={equal.value}
              types={keyTypes(key.type)}
              onChange={(value) => onChange(withHeld(held.map((e, i) => (i === j ? { ...e, value } : e)), condition.sort))}
            />
          </div>
        );
      })}
      {active ? (
        <SortRow
          name={active.name}
          type={active.type}
          choice={choice}
          sort={condition.sort}
          operators={operators[active.type] ?? []}
          onSort={(sort) => onChange(withHeld(held, sort))}
        />
      ) : null}
      {next ? (
        <SortRow
          name={next.name}
          type={next.type}
          choice="none"
          sort={null}
          operators={operators[next.type] ?? []}
          onSort={(sort) => {
            // The `=` before becomes a held equality, and this attribute takes the condition.
            if (sort === null || condition.sort?.type !== "compare") return;
            onChange(withHeld([...held, { name: condition.sort.name, value: condition.sort.value }], sort));
          }}
        />
      ) : null}
    </div>
  );
}

/** The operator and value(s) of the condition on one sort-key attribute. */
function SortRow({
  name,
  type,
  choice,
  sort,
  operators,
  onSort,
}: {
  name: string;
  type: KeyType;
  choice: SortChoice;
  sort: KeyConditionState["sort"];
  operators: SortKeyOperator[];
  onSort: (sort: KeyConditionState["sort"]) => void;
}) {
  const types = [type] as const;
  return (
    <div className="key-condition-row">
      <span className="key-name">{name}</span>
      <select aria-label={`${name} operator`} value={choice} onChange={(e) => onSort(sortFor(e.target.value as SortChoice, name, sort, emptyValue(type)))}>
        <option value="none">any</option>
        {operators.map((op) => (
          <option key={op} value={op}>
            {LABELS[op]}
          </option>
        ))}
      </select>
      {sort?.type === "compare" ? (
        <ValueInput label={`${name} value`} value={sort.value} types={types} onChange={(value) => onSort({ ...sort, value })} />
      ) : sort?.type === "between" ? (
        <>
          <ValueInput label={`${name} from`} value={sort.low} types={types} onChange={(low) => onSort({ ...sort, low })} />
          <span>and</span>
          <ValueInput label={`${name} to`} value={sort.high} types={types} onChange={(high) => onSort({ ...sort, high })} />
        </>
      ) : sort?.type === "beginsWith" ? (
        <ValueInput label={`${name} prefix`} value={sort.prefix} types={types} onChange={(prefix) => onSort({ ...sort, prefix })} />
      ) : null}
    </div>
  );
}
