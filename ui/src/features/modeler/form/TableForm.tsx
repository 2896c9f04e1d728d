/**
 * One table of the model in the form: its name, key, billing, and its GSIs and LSIs with their
 * keys and projections.
 */
import type { IndexModel, KeyAttr, KeyType, ModelProblem, TableModel } from "../../../ipc/bindings.gen";
import { AddButton, CheckField, ListField, NumberField, ProblemNote, RemoveButton, SelectField, TextField } from "./FormControls";
import { MAX_GSIS, MAX_LSIS, addIndex, changeIndex, removeIndex } from "./modelEdits";
import { atTop } from "./problems";

/** Rule B.7: key attributes are scalars, S, N or B. */
const KEY_TYPES: readonly KeyType[] = ["S", "N", "B"];

/** Rule B.8: table and index names are 3–255 characters of `A-Z a-z 0-9 _ - .`. */
export const NAME_RULES = { minLength: 3, maxLength: 255, pattern: "[a-zA-Z0-9_.\\-]+", title: "3 to 255 letters, digits, _ - or ." } as const;

function KeyInputs({ label, value, onChange, testId }: { label: string; value: KeyAttr; onChange: (k: KeyAttr) => void; testId: string }) {
  return (
    <>
      <TextField label={`${label} name`} value={value.name} onChange={(name) => onChange({ ...value, name })} testId={`${testId}-name`} required />
      <SelectField label={`${label} type`} value={value.type} options={KEY_TYPES} onChange={(type) => onChange({ ...value, type })} testId={`${testId}-type`} />
    </>
  );
}

function IndexForm({
  index,
  kind,
  tablePartition,
  onChange,
  onRemove,
  testId,
}: {
  index: IndexModel;
  kind: "global" | "local";
  tablePartition: KeyAttr;
  onChange: (i: IndexModel) => void;
  onRemove: () => void;
  testId: string;
}) {
  const projection = index.projection ?? { type: "all" as const };
  const what = kind === "global" ? "GSI" : "LSI";
  return (
    <fieldset className="mf-index" data-testid={testId}>
      <legend>
        {what} {index.name}
      </legend>
      <div className="mf-row">
        <TextField label={`${what} name`} value={index.name} onChange={(name) => onChange({ ...index, name })} testId={`${testId}-name`} {...NAME_RULES} />
        {kind === "global" ? (
          <KeyInputs label="Partition key" value={index.partitionKey} onChange={(partitionKey) => onChange({ ...index, partitionKey })} testId={`${testId}-pk`} />
        ) : (
          // Rule B.7: an LSI has the table's partition key.
          <span className="mf-field">
            <span className="mf-static-label">Partition key</span>
            <span className="muted">
              {tablePartition.name} ({tablePartition.type}, the table's)
            </span>
          </span>
        )}
      </div>
      <div className="mf-row">
        {kind === "global" && (
          <CheckField
            label="Sort key"
            checked={index.sortKey != null}
            onChange={(on) => onChange({ ...index, sortKey: on ? { name: "", type: "S" } : null })}
            testId={`${testId}-has-sk`}
          />
        )}
        {index.sortKey != null && <KeyInputs label="Sort key" value={index.sortKey} onChange={(sortKey) => onChange({ ...index, sortKey })} testId={`${testId}-sk`} />}
      </div>
      <div className="mf-row">
        <SelectField
          label="Projection"
          value={projection.type}
          options={[
            { value: "all", label: "ALL" },
            { value: "keysOnly", label: "KEYS_ONLY" },
            { value: "include", label: "INCLUDE" },
          ]}
          onChange={(type) => onChange({ ...index, projection: type === "include" ? { type, attributes: [] } : { type } })}
          testId={`${testId}-projection`}
        />
        {projection.type === "include" && (
          <ListField
            label="Included attributes"
            value={projection.attributes}
            onChange={(attributes) => onChange({ ...index, projection: { type: "include", attributes } })}
            testId={`${testId}-include`}
          />
        )}
        <RemoveButton what={`${what} ${index.name}`} onClick={onRemove} />
      </div>
    </fieldset>
  );
}

export function TableForm({
  table,
  at,
  problem,
  onChange,
  onRemove,
}: {
  table: TableModel;
  at: number;
  /** The backend's problem when it concerns this table. */
  problem: ModelProblem | null;
  onChange: (t: TableModel) => void;
  onRemove: () => void;
}) {
  const gsis = table.globalIndexes ?? [];
  const lsis = table.localIndexes ?? [];
  const billing = table.billing ?? { mode: "onDemand" as const };
  const testId = `mf-table-${at}`;
  return (
    <fieldset className="mf-part" data-testid={testId}>
      <legend>Table {table.name}</legend>
      <ProblemNote problem={atTop(problem, [])} />
      <div className="mf-row">
        <TextField label="Table name" value={table.name} onChange={(name) => onChange({ ...table, name })} testId={`${testId}-name`} {...NAME_RULES} />
        <RemoveButton what={`table ${table.name}`} onClick={onRemove} />
      </div>
      <div className="mf-row">
        <KeyInputs label="Partition key" value={table.partitionKey} onChange={(partitionKey) => onChange({ ...table, partitionKey })} testId={`${testId}-pk`} />
      </div>
      <div className="mf-row">
        <CheckField
          label="Sort key"
          checked={table.sortKey != null}
          onChange={(on) => onChange({ ...table, sortKey: on ? { name: "sk", type: "S" } : null })}
          testId={`${testId}-has-sk`}
        />
        {table.sortKey != null && <KeyInputs label="Sort key" value={table.sortKey} onChange={(sortKey) => onChange({ ...table, sortKey })} testId={`${testId}-sk`} />}
      </div>
      <div className="mf-row">
        <SelectField
          label="Billing"
          value={billing.mode}
          options={[
            { value: "onDemand", label: "On demand" },
            { value: "provisioned", label: "Provisioned" },
          ]}
          onChange={(mode) => onChange({ ...table, billing: mode === "onDemand" ? { mode } : { mode, readUnits: 5, writeUnits: 5 } })}
          testId={`${testId}-billing`}
        />
        {billing.mode === "provisioned" && (
          <>
            {/* Rule B.7: at least 1 RCU and 1 WCU per provisioned table and GSI. */}
            <NumberField label="Read units" min={1} value={billing.readUnits} onChange={(v) => onChange({ ...table, billing: { ...billing, readUnits: v ?? 1 } })} />
            <NumberField label="Write units" min={1} value={billing.writeUnits} onChange={(v) => onChange({ ...table, billing: { ...billing, writeUnits: v ?? 1 } })} />
          </>
        )}
      </div>
      {gsis.map((index, n) => (
        <IndexForm
          key={n}
          index={index}
          kind="global"
          tablePartition={table.partitionKey}
          onChange={(i) => onChange(changeIndex(table, "global", n, i))}
          onRemove={() => onChange(removeIndex(table, "global", n))}
          testId={`${testId}-gsi-${n}`}
        />
      ))}
      {lsis.map((index, n) => (
        <IndexForm
          key={n}
          index={index}
          kind="local"
          tablePartition={table.partitionKey}
          onChange={(i) => onChange(changeIndex(table, "local", n, i))}
          onRemove={() => onChange(removeIndex(table, "local", n))}
          testId={`${testId}-lsi-${n}`}
        />
      ))}
      <div className="mf-row">
        <AddButton onClick={() => onChange(addIndex(table, "global"))} disabled={gsis.length >= MAX_GSIS} title={`At most ${MAX_GSIS} GSIs a table`} testId={`${testId}-add-gsi`}>
          Add GSI
        </AddButton>
        <AddButton
          onClick={() => onChange(addIndex(table, "local"))}
          disabled={lsis.length >= MAX_LSIS || table.sortKey == null}
          title={table.sortKey == null ? "An LSI needs a table with a sort key" : `At most ${MAX_LSIS} LSIs a table, made with it`}
          testId={`${testId}-add-lsi`}
        >
          Add LSI
        </AddButton>
      </div>
    </fieldset>
  );
}
