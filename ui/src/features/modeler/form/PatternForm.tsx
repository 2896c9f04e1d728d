/**
 * One access pattern in the form: the entity it reads, the fields the caller knows (with an
 * example value each), a range on one field, the order, the limit, the fields read, its rate and
 * its consistency.
 */
import type { AccessPattern, Entity, FieldRange, ModelProblem } from "../../../ipc/bindings.gen";
import { AddButton, CheckField, ListField, NumberField, ProblemNote, RemoveButton, SelectField, TextField } from "./FormControls";
import { atMember, atTop } from "./problems";

type RangeOp = FieldRange["op"] | "none";

const RANGE_OPS: readonly { value: RangeOp; label: string }[] = [
  { value: "none", label: "(none)" },
  { value: "between", label: "between" },
  { value: "beginsWith", label: "begins with" },
  { value: "atLeast", label: "at least" },
  { value: "atMost", label: "at most" },
];

function rangeOf(op: RangeOp, field: string): FieldRange | null {
  switch (op) {
    case "none":
      return null;
    case "between":
      return { op, field, low: "", high: "" };
    case "beginsWith":
      return { op, field, prefix: "" };
    case "atLeast":
    case "atMost":
      return { op, field, value: "" };
  }
}

export function PatternForm({
  pattern,
  at,
  entities,
  problem,
  onChange,
  onRemove,
}: {
  pattern: AccessPattern;
  at: number;
  entities: readonly Entity[];
  /** The backend's problem when it concerns this pattern. */
  problem: ModelProblem | null;
  onChange: (p: AccessPattern) => void;
  onRemove: () => void;
}) {
  const testId = `mf-pattern-${at}`;
  const fields = (entities.find((e) => e.name === pattern.entity)?.fields ?? []).map((f) => f.name);
  const given = Object.entries(pattern.given ?? {});
  const range = pattern.range ?? null;
  const setGiven = (entries: [string, string][]) => onChange({ ...pattern, given: Object.fromEntries(entries) });
  const shown = [...given.map(([f]) => `given:${f}`), "entity", "range", "orderBy", "rate"];
  return (
    <fieldset className="mf-part" data-testid={testId}>
      <legend>Pattern {pattern.name}</legend>
      <ProblemNote problem={atTop(problem, shown)} />
      <div className="mf-row">
        <TextField label="Pattern name" value={pattern.name} onChange={(name) => onChange({ ...pattern, name })} testId={`${testId}-name`} required />
        <SelectField label="Reads entity" value={pattern.entity} options={entities.map((e) => e.name)} onChange={(entity) => onChange({ ...pattern, entity })} testId={`${testId}-entity`} />
        <RemoveButton what={`pattern ${pattern.name}`} onClick={onRemove} />
      </div>
      <ProblemNote problem={atMember(problem, "entity")} />
      <h5>Known fields</h5>
      {given.map(([field, example], n) => (
        <div className="mf-row" key={n} data-testid={`${testId}-given-${n}`}>
          <SelectField
            label="Field"
            value={field}
            options={fields.filter((f) => f === field || !given.some(([g]) => g === f))}
            onChange={(f) => setGiven(given.map((e, i) => (i === n ? [f, e[1]] : e)))}
            testId={`${testId}-given-${n}-field`}
          />
          <TextField label="Example value" value={example} onChange={(v) => setGiven(given.map((e, i) => (i === n ? [e[0], v] : e)))} testId={`${testId}-given-${n}-value`} />
          <RemoveButton what={`known field ${field}`} onClick={() => setGiven(given.filter((_, i) => i !== n))} />
          <ProblemNote problem={atMember(problem, `given:${field}`)} />
        </div>
      ))}
      <AddButton
        onClick={() => {
          const free = fields.find((f) => !given.some(([g]) => g === f));
          if (free !== undefined) setGiven([...given, [free, ""]]);
        }}
        disabled={!fields.some((f) => !given.some(([g]) => g === f))}
        testId={`${testId}-add-given`}
      >
        Add known field
      </AddButton>
      <h5>Range, order and size</h5>
      <div className="mf-row">
        <SelectField label="Range" value={range?.op ?? "none"} options={RANGE_OPS} onChange={(op) => onChange({ ...pattern, range: rangeOf(op, range?.field ?? fields[0] ?? "") })} testId={`${testId}-range`} />
        {range !== null && (
          <>
            <SelectField label="Range field" value={range.field} options={fields} onChange={(field) => onChange({ ...pattern, range: { ...range, field } })} testId={`${testId}-range-field`} />
            {range.op === "between" && (
              <>
                <TextField label="From" value={range.low} onChange={(low) => onChange({ ...pattern, range: { ...range, low } })} testId={`${testId}-range-low`} />
                <TextField label="To" value={range.high} onChange={(high) => onChange({ ...pattern, range: { ...range, high } })} testId={`${testId}-range-high`} />
              </>
            )}
            {range.op === "beginsWith" && <TextField label="Prefix" value={range.prefix} onChange={(prefix) => onChange({ ...pattern, range: { ...range, prefix } })} testId={`${testId}-range-prefix`} />}
            {(range.op === "atLeast" || range.op === "atMost") && (
              <TextField label="Value" value={range.value} onChange={(value) => onChange({ ...pattern, range: { ...range, value } })} testId={`${testId}-range-value`} />
            )}
          </>
        )}
      </div>
      <ProblemNote problem={atMember(problem, "range")} />
      <div className="mf-row">
        <SelectField
          label="Ordered by"
          value={pattern.orderBy ?? ""}
          options={[{ value: "", label: "(any order)" }, ...fields.map((f) => ({ value: f, label: f }))]}
          onChange={(f) => onChange({ ...pattern, orderBy: f === "" ? null : f })}
          testId={`${testId}-order`}
        />
        <CheckField label="Newest (highest) first" checked={pattern.descending ?? false} onChange={(descending) => onChange({ ...pattern, descending })} testId={`${testId}-descending`} />
        <NumberField label="Limit (empty: all)" optional min={1} value={pattern.limit ?? null} onChange={(v) => onChange({ ...pattern, limit: v === null ? null : Math.max(1, Math.round(v)) })} testId={`${testId}-limit`} />
      </div>
      <ProblemNote problem={atMember(problem, "orderBy")} />
      <div className="mf-row">
        <ListField label="Fields read (empty: all)" value={pattern.reads ?? []} onChange={(reads) => onChange({ ...pattern, reads })} testId={`${testId}-reads`} />
        <NumberField label="Calls a second" min={0} value={pattern.ratePerSecond ?? 0} onChange={(v) => onChange({ ...pattern, ratePerSecond: v ?? 0 })} testId={`${testId}-rate`} />
        <CheckField label="Strongly consistent" checked={pattern.consistent ?? false} onChange={(consistent) => onChange({ ...pattern, consistent })} testId={`${testId}-consistent`} />
      </div>
      <ProblemNote problem={atMember(problem, "rate")} />
    </fieldset>
  );
}
