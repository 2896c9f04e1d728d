import type { AttributePath, Comparator, ConditionState, Operand, TypeDescriptor } from "../../ipc/bindings.gen";
import { OperandInput, SubjectInput } from "./OperandInput";
import { PathInput } from "./PathInput";
import "./ConditionBuilder.css";

const COMPARATORS: Comparator[] = ["=", "<>", "<", "<=", ">", ">="];
const TYPES: TypeDescriptor[] = ["S", "N", "B", "SS", "NS", "BS", "M", "L", "NULL", "BOOL"];

/** The forms of a single condition, as the kind menu names them. */
const KINDS = {
  compare: "compare",
  between: "BETWEEN",
  in: "IN",
  attributeExists: "attribute_exists",
  attributeNotExists: "attribute_not_exists",
  attributeType: "attribute_type",
  beginsWith: "begins_with",
  contains: "contains",
} as const;
type Kind = keyof typeof KINDS;

type Leaf = Exclude<ConditionState, { type: "and" } | { type: "or" } | { type: "not" }>;

function subjectOf(condition: ConditionState, fallback: AttributePath): Operand {
  switch (condition.type) {
    case "compare":
      return condition.left;
    case "between":
    case "in":
    case "attributeType":
    case "beginsWith":
    case "contains":
      return condition.operand;
    case "attributeExists":
    case "attributeNotExists":
      return { type: "path", path: condition.path };
    default:
      return { type: "path", path: fallback };
  }
}

function pathOf(operand: Operand, fallback: AttributePath): AttributePath {
  if (operand.type === "path") return operand.path;
  if (operand.type === "size") return pathOf(operand.operand, fallback);
  return fallback;
}

/** A condition of another kind on the same subject. */
export function leafOfKind(kind: Kind, from: ConditionState, fallback: AttributePath): Leaf {
  const operand = subjectOf(from, fallback);
  const empty: Operand = { type: "value", value: { S: "" } };
  switch (kind) {
    case "compare":
      return { type: "compare", left: operand, op: "=", right: empty };
    case "between":
      return { type: "between", operand, low: { type: "value", value: { N: "0" } }, high: { type: "value", value: { N: "1" } } };
    case "in":
      return { type: "in", operand, list: [empty] };
    case "attributeExists":
      return { type: "attributeExists", path: pathOf(operand, fallback) };
    case "attributeNotExists":
      return { type: "attributeNotExists", path: pathOf(operand, fallback) };
    case "attributeType":
      return { type: "attributeType", operand, attributeType: "S" };
    case "beginsWith":
      return { type: "beginsWith", operand, prefix: empty };
    case "contains":
      return { type: "contains", operand, element: empty };
  }
}

/**
 * A filter or condition built visually: groups joined by AND or OR (nested to any depth), NOT on
 * any member, and every form DynamoDB has — comparators, BETWEEN, IN and the functions.
 */
export function ConditionBuilder({
  condition,
  onChange,
  suggestions,
  label = "Condition",
}: {
  condition: ConditionState | null;
  onChange: (condition: ConditionState | null) => void;
  suggestions: readonly string[];
  label?: string;
}) {
  const fallback: AttributePath = [suggestions[0] ?? "attribute"];
  const members = condition === null ? [] : condition.type === "and" || condition.type === "or" ? condition.conditions : [condition];
  const joiner = condition?.type === "or" ? "or" : "and";
  const emit = (next: ConditionState[], nextJoiner: "and" | "or" = joiner) => {
    if (next.length === 0) onChange(null);
    else if (next.length === 1 && next[0]) onChange(next[0]);
    else onChange({ type: nextJoiner, conditions: next });
  };
  return (
    <div className="condition-builder" role="group" aria-label={label}>
      <Group
        members={members}
        joiner={joiner}
        onChange={emit}
        suggestions={suggestions}
        fallback={fallback}
        path="1"
      />
      {members.length === 0 ? <p className="builder-hint">No condition: every item matches.</p> : null}
    </div>
  );
}

function Group({
  members,
  joiner,
  onChange,
  suggestions,
  fallback,
  path,
}: {
  members: ConditionState[];
  joiner: "and" | "or";
  onChange: (members: ConditionState[], joiner?: "and" | "or") => void;
  suggestions: readonly string[];
  fallback: AttributePath;
  path: string;
}) {
  const replace = (index: number, member: ConditionState | null) => {
    const next = [...members];
    if (member === null) next.splice(index, 1);
    else next[index] = member;
    onChange(next);
  };
  return (
    <div className="condition-group">
      {members.length > 1 ? (
        <select
          aria-label={`Join of group ${path}`}
          value={joiner}
          onChange={(e) => onChange(members, e.target.value as "and" | "or")}
        >
          <option value="and">all of (AND)</option>
          <option value="or">any of (OR)</option>
        </select>
      ) : null}
      <ol className="condition-members">
        {members.map((member, index) => (
          <li key={index}>
            <Member
              member={member}
              onChange={(m) => replace(index, m)}
              suggestions={suggestions}
              fallback={fallback}
              path={`${path}.${index + 1}`}
            />
          </li>
        ))}
      </ol>
      <div className="condition-actions">
        <button
          type="button"
          onClick={() => onChange([...members, leafOfKind("compare", members[members.length - 1] ?? { type: "and", conditions: [] }, fallback)])}
        >
          Add condition
        </button>
        <button
          type="button"
          onClick={() =>
            onChange([
              ...members,
              { type: joiner === "and" ? "or" : "and", conditions: [leafOfKind("compare", { type: "and", conditions: [] }, fallback)] },
            ])
          }
        >
          Add group
        </button>
      </div>
    </div>
  );
}

function Member({
  member,
  onChange,
  suggestions,
  fallback,
  path,
}: {
  member: ConditionState;
  onChange: (member: ConditionState | null) => void;
  suggestions: readonly string[];
  fallback: AttributePath;
  path: string;
}) {
  const negated = member.type === "not";
  const inner = member.type === "not" ? member.condition : member;
  const wrap = (c: ConditionState): ConditionState => (negated ? { type: "not", condition: c } : c);
  return (
    <div className="condition-member">
      <label className="inline-check">
        <input
          type="checkbox"
          aria-label={`NOT ${path}`}
          checked={negated}
          onChange={(e) => onChange(e.target.checked ? { type: "not", condition: inner } : inner)}
        />
        NOT
      </label>
      {inner.type === "and" || inner.type === "or" ? (
        <Group
          members={inner.conditions}
          joiner={inner.type}
          onChange={(next, j = inner.type) =>
            onChange(next.length === 0 ? null : wrap(next.length === 1 && next[0] ? next[0] : { type: j, conditions: next }))
          }
          suggestions={suggestions}
          fallback={fallback}
          path={path}
        />
      ) : inner.type === "not" ? (
        <Member member={inner} onChange={(c) => onChange(c === null ? null : wrap(c))} suggestions={suggestions} fallback={fallback} path={path} />
      ) : (
        <LeafEditor leaf={inner} onChange={(c) => onChange(wrap(c))} suggestions={suggestions} fallback={fallback} path={path} />
      )}
      <button type="button" className="remove" aria-label={`Remove condition ${path}`} onClick={() => onChange(null)}>
        ×
      </button>
    </div>
  );
}

function LeafEditor({
  leaf,
  onChange,
  suggestions,
  fallback,
  path,
}: {
  leaf: Leaf;
  onChange: (leaf: Leaf) => void;
  suggestions: readonly string[];
  fallback: AttributePath;
  path: string;
}) {
  const subject = (operand: Operand) => (
    <SubjectInput label={`Attribute ${path}`} operand={operand} suggestions={suggestions} onChange={(o) => onChange({ ...leaf, ...subjectPatch(leaf, o) } as Leaf)} />
  );
  const operand = (label: string, value: Operand, set: (o: Operand) => Leaf) => (
    <OperandInput label={`${label} ${path}`} operand={value} suggestions={suggestions} onChange={(o) => onChange(set(o))} />
  );
  return (
    <span className="condition-leaf">
      <select
        aria-label={`Kind ${path}`}
        value={leaf.type}
        onChange={(e) => onChange(leafOfKind(e.target.value as Kind, leaf, fallback))}
      >
        {(Object.keys(KINDS) as Kind[]).map((k) => (
          <option key={k} value={k}>
            {KINDS[k]}
          </option>
        ))}
      </select>
      {leaf.type === "compare" ? (
        <>
          {subject(leaf.left)}
          <select aria-label={`Comparator ${path}`} value={leaf.op} onChange={(e) => onChange({ ...leaf, op: e.target.value as Comparator })}>
            {COMPARATORS.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
          {operand("Value", leaf.right, (right) => ({ ...leaf, right }))}
        </>
      ) : leaf.type === "between" ? (
        <>
          {subject(leaf.operand)}
          {operand("From", leaf.low, (low) => ({ ...leaf, low }))}
          <span>and</span>
          {operand("To", leaf.high, (high) => ({ ...leaf, high }))}
        </>
      ) : leaf.type === "in" ? (
        <>
          {subject(leaf.operand)}
          <span>in</span>
          {leaf.list.map((item, i) => (
            <span key={i} className="in-item">
              {operand(`Value ${i + 1} of`, item, (o) => ({ ...leaf, list: leaf.list.map((x, j) => (j === i ? o : x)) }))}
              {leaf.list.length > 1 ? (
                <button
                  type="button"
                  aria-label={`Remove value ${i + 1} of ${path}`}
                  onClick={() => onChange({ ...leaf, list: leaf.list.filter((_, j) => j !== i) })}
                >
                  −
                </button>
              ) : null}
            </span>
          ))}
          {leaf.list.length < 100 ? (
            <button type="button" onClick={() => onChange({ ...leaf, list: [...leaf.list, { type: "value", value: { S: "" } }] })}>
              Add value
            </button>
          ) : null}
        </>
      ) : leaf.type === "attributeExists" || leaf.type === "attributeNotExists" ? (
        <PathInput label={`Attribute ${path}`} path={leaf.path} suggestions={suggestions} onChange={(p) => onChange({ ...leaf, path: p })} />
      ) : leaf.type === "attributeType" ? (
        <>
          {subject(leaf.operand)}
          <select
            aria-label={`Type ${path}`}
            value={leaf.attributeType}
            onChange={(e) => onChange({ ...leaf, attributeType: e.target.value as TypeDescriptor })}
          >
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </>
      ) : leaf.type === "beginsWith" ? (
        <>
          {subject(leaf.operand)}
          {operand("Prefix", leaf.prefix, (prefix) => ({ ...leaf, prefix }))}
        </>
      ) : (
        <>
          {subject(leaf.operand)}
          {operand("Element", leaf.element, (element) => ({ ...leaf, element }))}
        </>
      )}
    </span>
  );
}

function subjectPatch(leaf: Leaf, operand: Operand): Partial<Leaf> {
  return leaf.type === "compare" ? { left: operand } : { operand };
}
