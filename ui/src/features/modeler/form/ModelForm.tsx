/**
 * The model as a form (issue 21 point 1): tables with their keys and indexes, entity types with
 * key templates, fields and sample sizes, and access patterns, each list with add and remove.
 * It edits the same model the JSON view shows: every change goes up as a whole new model.
 */
import type { Model, ModelProblem } from "../../../ipc/bindings.gen";
import { EntityForm } from "./EntityForm";
import { AddButton, ProblemNote, TextField } from "./FormControls";
import {
  addEntity,
  addPattern,
  addTable,
  changeEntity,
  changePattern,
  changeTable,
  entitiesOf,
  patternsOf,
  removeEntity,
  removePattern,
  removeTable,
} from "./modelEdits";
import { PatternForm } from "./PatternForm";
import { problemOf, unplaced } from "./problems";
import { TableForm } from "./TableForm";
import { ARRIVAL } from "../../../shared/arrival";

export function ModelForm({ model, problem, onChange }: { model: Model; problem: ModelProblem | null; onChange: (m: Model) => void }) {
  const entities = entitiesOf(model);
  const patterns = patternsOf(model);
  return (
    <div className="mf" data-testid="modeler-form">
      <ProblemNote problem={unplaced(problem, model)} />
      <div className="mf-row">
        {/* Where the modeler's tab is entered as it opens (`ARRIVAL`). */}
        <TextField label="Model name" value={model.name} onChange={(name) => onChange({ ...model, name })} testId="mf-model-name" {...ARRIVAL} />
        <TextField label="Description" className="mf-long" value={model.description ?? ""} onChange={(description) => onChange({ ...model, description })} testId="mf-model-description" />
      </div>
      <section aria-labelledby="mf-tables">
        <h4 id="mf-tables">Tables</h4>
        {model.tables.map((t, n) => (
          <TableForm key={n} at={n} table={t} problem={problemOf(problem, "table", t.name)} onChange={(next) => onChange(changeTable(model, n, next))} onRemove={() => onChange(removeTable(model, n))} />
        ))}
        <AddButton onClick={() => onChange(addTable(model))} testId="mf-add-table">
          Add table
        </AddButton>
      </section>
      <section aria-labelledby="mf-entities">
        <h4 id="mf-entities">Entity types</h4>
        {entities.length === 0 && <p className="muted">An entity type is one kind of item (a vehicle, a reading) stored in a table, with its key templates.</p>}
        {entities.map((e, n) => (
          <EntityForm
            key={n}
            at={n}
            entity={e}
            tables={model.tables}
            entities={entities}
            problem={problemOf(problem, "entity", e.name)}
            onChange={(next) => onChange(changeEntity(model, n, next))}
            onRemove={() => onChange(removeEntity(model, n))}
          />
        ))}
        <AddButton onClick={() => onChange(addEntity(model))} disabled={model.tables.length === 0} title={model.tables.length === 0 ? "Add a table first" : undefined} testId="mf-add-entity">
          Add entity type
        </AddButton>
      </section>
      <section aria-labelledby="mf-patterns">
        <h4 id="mf-patterns">Access patterns</h4>
        {patterns.map((p, n) => (
          <PatternForm
            key={n}
            at={n}
            pattern={p}
            entities={entities}
            problem={problemOf(problem, "pattern", p.name)}
            onChange={(next) => onChange(changePattern(model, n, next))}
            onRemove={() => onChange(removePattern(model, n))}
          />
        ))}
        <AddButton onClick={() => onChange(addPattern(model))} disabled={entities.length === 0} title={entities.length === 0 ? "Add an entity type first" : undefined} testId="mf-add-pattern">
          Add access pattern
        </AddButton>
      </section>
    </div>
  );
}
