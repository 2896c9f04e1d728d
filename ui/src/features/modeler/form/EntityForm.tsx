/**
 * One entity type in the form: its table, the key attributes it fills with templates (the
 * table's key always; each index key only if ticked, so sparse indexes are explicit, with the
 * share of items that carry it), its fields with types and generators, and how much sample data
 * it makes.
 */
import type { Entity, Field, FieldType, KeyFill, ModelProblem, TableModel } from "../../../ipc/bindings.gen";
import { AddButton, CheckField, NumberField, ProblemNote, RemoveButton, SelectField, TextField } from "./FormControls";
import { GeneratorForm, defaultGenerator } from "./GeneratorForm";
import { freshName, keyAttributes, removeAt, replaceAt } from "./modelEdits";
import { atMember, atTop } from "./problems";

/** Rule B.7: DynamoDB's ten attribute types. */
const FIELD_TYPES: readonly FieldType[] = ["S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS"];

function KeyRow({
  attribute,
  roles,
  tableKey,
  fill,
  onChange,
  problem,
  testId,
}: {
  attribute: string;
  roles: string[];
  tableKey: boolean;
  fill: KeyFill | undefined;
  onChange: (f: KeyFill | null) => void;
  problem: ModelProblem | null;
  testId: string;
}) {
  return (
    <div className="mf-key" data-testid={testId}>
      <div className="mf-row">
        <CheckField
          label={`Fills ${attribute}`}
          // Rule B.7: every item carries the table's key, so the entity always fills it.
          checked={tableKey || fill !== undefined}
          disabled={tableKey}
          onChange={(on) => onChange(on ? { attribute, template: "", presence: 1 } : null)}
          testId={`${testId}-fills`}
        />
        <span className="muted mf-hint">{roles.join(", ")}</span>
      </div>
      {(tableKey || fill !== undefined) && (
        <div className="mf-row">
          <TextField
            label={`${attribute} template`}
            placeholder="VEH#{vehicleId}"
            value={fill?.template ?? ""}
            onChange={(template) => onChange({ attribute, presence: 1, ...fill, template })}
            testId={`${testId}-template`}
          />
          {!tableKey && (
            <NumberField
              label="Share of items"
              min={0}
              max={1}
              step={0.1}
              value={fill?.presence ?? 1}
              onChange={(presence) => onChange({ attribute, template: "", ...fill, presence: presence ?? 1 })}
              testId={`${testId}-presence`}
            />
          )}
        </div>
      )}
      <ProblemNote problem={problem} />
    </div>
  );
}

export function EntityForm({
  entity,
  at,
  tables,
  entities,
  problem,
  onChange,
  onRemove,
}: {
  entity: Entity;
  at: number;
  tables: readonly TableModel[];
  entities: readonly Entity[];
  /** The backend's problem when it concerns this entity. */
  problem: ModelProblem | null;
  onChange: (e: Entity) => void;
  onRemove: () => void;
}) {
  const testId = `mf-entity-${at}`;
  const table = tables.find((t) => t.name === entity.table);
  const keys = table ? keyAttributes(table) : [];
  const strays = entity.keys.filter((k) => !keys.some((a) => a.attr.name === k.attribute));
  const fields = entity.fields ?? [];
  const setFill = (attribute: string, fill: KeyFill | null) => {
    const rest = entity.keys.filter((k) => k.attribute !== attribute);
    // The keys stay in the table's order: the table's key first, then each index key.
    const order = keys.map((k) => k.attr.name);
    const next = fill === null ? rest : [...rest, fill];
    next.sort((a, b) => {
      const ia = order.indexOf(a.attribute);
      const ib = order.indexOf(b.attribute);
      return (ia < 0 ? order.length : ia) - (ib < 0 ? order.length : ib);
    });
    onChange({ ...entity, keys: next });
  };
  const setField = (n: number, field: Field) => onChange({ ...entity, fields: replaceAt(fields, n, field) });
  const shown = [...keys.map((k) => `key:${k.attr.name}`), ...strays.map((k) => `key:${k.attribute}`), ...fields.map((f) => `field:${f.name}`), "table"];
  return (
    <fieldset className="mf-part" data-testid={testId}>
      <legend>Entity {entity.name}</legend>
      <ProblemNote problem={atTop(problem, shown)} />
      <div className="mf-row">
        <TextField label="Entity name" value={entity.name} onChange={(name) => onChange({ ...entity, name })} testId={`${testId}-name`} required />
        <SelectField
          label="Table"
          value={entity.table}
          options={tables.map((t) => t.name)}
          onChange={(name) => {
            const next = tables.find((t) => t.name === name);
            const tableKeys = next ? keyAttributes(next).filter((k) => k.tableKey) : [];
            const kept = entity.keys.filter((k) => next && keyAttributes(next).some((a) => a.attr.name === k.attribute));
            const missing = tableKeys.filter((k) => !kept.some((f) => f.attribute === k.attr.name)).map((k) => ({ attribute: k.attr.name, template: "", presence: 1 }));
            onChange({ ...entity, table: name, keys: [...missing, ...kept] });
          }}
          testId={`${testId}-table`}
        />
        <RemoveButton what={`entity ${entity.name}`} onClick={onRemove} />
      </div>
      <ProblemNote problem={atMember(problem, "table")} />
      <h5>Keys it fills</h5>
      {keys.map((k) => (
        <KeyRow
          key={k.attr.name}
          attribute={k.attr.name}
          roles={k.roles}
          tableKey={k.tableKey}
          fill={entity.keys.find((f) => f.attribute === k.attr.name)}
          onChange={(f) => setFill(k.attr.name, f)}
          problem={atMember(problem, `key:${k.attr.name}`)}
          testId={`${testId}-key-${k.attr.name}`}
        />
      ))}
      {strays.map((k) => (
        <div className="mf-row" key={k.attribute}>
          <span className="modeler-warning">
            {k.attribute} ({k.template}) is not a key of {entity.table || "a table"}.
          </span>
          <RemoveButton what={`key ${k.attribute}`} onClick={() => setFill(k.attribute, null)} />
          <ProblemNote problem={atMember(problem, `key:${k.attribute}`)} />
        </div>
      ))}
      <h5>Fields</h5>
      {fields.map((f, n) => (
        <div className="mf-entry" key={n} data-testid={`${testId}-field-${n}`}>
          <div className="mf-row">
            <TextField label="Field name" value={f.name} onChange={(name) => setField(n, { ...f, name })} testId={`${testId}-field-${n}-name`} required />
            <SelectField label="Type" value={f.type} options={FIELD_TYPES} onChange={(type) => setField(n, { ...f, type })} testId={`${testId}-field-${n}-type`} />
            <RemoveButton what={`field ${f.name}`} onClick={() => onChange({ ...entity, fields: removeAt(fields, n) })} />
          </div>
          <div className="mf-row">
            <GeneratorForm generator={f.generator} onChange={(generator) => setField(n, { ...f, generator })} entity={entity} entities={entities} testId={`${testId}-field-${n}-gen`} />
          </div>
          <ProblemNote problem={atMember(problem, `field:${f.name}`)} />
        </div>
      ))}
      <AddButton
        onClick={() =>
          onChange({
            ...entity,
            fields: [...fields, { name: freshName("field", fields.map((f) => f.name)), type: "S", generator: defaultGenerator("sequence", []) }],
          })
        }
        testId={`${testId}-add-field`}
      >
        Add field
      </AddButton>
      <h5>Sample data</h5>
      <div className="mf-row">
        <NumberField label="Items" min={0} value={entity.count ?? 0} onChange={(v) => onChange({ ...entity, count: Math.max(0, Math.round(v ?? 0)) })} testId={`${testId}-count`} />
        <NumberField label="Writes a second" min={0} value={entity.writesPerSecond ?? 0} onChange={(v) => onChange({ ...entity, writesPerSecond: v ?? 0 })} testId={`${testId}-writes`} />
        <NumberField
          label="Kept (days, empty: for ever)"
          optional
          min={0}
          value={entity.retentionDays ?? null}
          onChange={(retentionDays) => onChange({ ...entity, retentionDays })}
          testId={`${testId}-retention`}
        />
      </div>
    </fieldset>
  );
}
