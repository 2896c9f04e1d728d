import { useEffect, useState } from "react";
import type { AttributeValueJson, KeyConditionState, KeySchemaState, SortKeyOperator } from "../../ipc/bindings.gen";
import type { BuilderSource } from "./source";
import { ValueInput } from "./ValueInput";
import { emptyValue } from "./model";

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

/** A fresh key condition on a key schema. */
export function emptyKeyCondition(schema: KeySchemaState): KeyConditionState {
  return { partitionKey: schema.partitionKey.name, partitionValue: emptyValue(schema.partitionKey.type), sort: null };
}

/**
 * A KeyConditionExpression for the table or the chosen index: the partition key with `=` and a
 * typed value, and the sort-key operators DynamoDB allows for the sort key's type, as the backend
 * answers them (rule B.5: no `<>`, no OR, begins_with on S and B only).
 */
export function KeyConditionBuilder({
  schema,
  condition,
  onChange,
  source,
}: {
  schema: KeySchemaState;
  condition: KeyConditionState;
  onChange: (condition: KeyConditionState) => void;
  source: Pick<BuilderSource, "sortKeyOperators">;
}) {
  const sortKey = schema.sortKey;
  const sortType = sortKey?.type ?? null;
  const [operators, setOperators] = useState<SortKeyOperator[]>([]);
  useEffect(() => {
    let live = true;
    if (sortType === null) {
      setOperators([]);
      return;
    }
    source.sortKeyOperators(sortType).then(
      (ops) => live && setOperators(ops),
      () => live && setOperators([]),
    );
    return () => {
      live = false;
    };
  }, [source, sortType]);

  const choice = sortChoice(condition);
  const keyTypes = (t: "S" | "N" | "B") => [t] as const;
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
      {sortKey ? (
        <div className="key-condition-row">
          <span className="key-name">{sortKey.name}</span>
          <select
            aria-label={`${sortKey.name} operator`}
            value={choice}
            onChange={(e) =>
              onChange({ ...condition, sort: sortFor(e.target.value as SortChoice, sortKey.name, condition.sort, emptyValue(sortKey.type)) })
            }
          >
            <option value="none">any</option>
            {operators.map((op) => (
              <option key={op} value={op}>
                {LABELS[op]}
              </option>
            ))}
          </select>
          {condition.sort?.type === "compare" ? (
            <ValueInput
              label={`${sortKey.name} value`}
              value={condition.sort.value}
              types={keyTypes(sortKey.type)}
              onChange={(value) => condition.sort?.type === "compare" && onChange({ ...condition, sort: { ...condition.sort, value } })}
            />
          ) : condition.sort?.type === "between" ? (
            <>
              <ValueInput
                label={`${sortKey.name} from`}
                value={condition.sort.low}
                types={keyTypes(sortKey.type)}
                onChange={(low) => condition.sort?.type === "between" && onChange({ ...condition, sort: { ...condition.sort, low } })}
              />
              <span>and</span>
              <ValueInput
                label={`${sortKey.name} to`}
                value={condition.sort.high}
                types={keyTypes(sortKey.type)}
                onChange={(high) => condition.sort?.type === "between" && onChange({ ...condition, sort: { ...condition.sort, high } })}
              />
            </>
          ) : condition.sort?.type === "beginsWith" ? (
            <ValueInput
              label={`${sortKey.name} prefix`}
              value={condition.sort.prefix}
              types={keyTypes(sortKey.type)}
              onChange={(prefix) => condition.sort?.type === "beginsWith" && onChange({ ...condition, sort: { ...condition.sort, prefix } })}
            />
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
