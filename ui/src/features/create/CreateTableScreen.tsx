/**
 * The create-table screen: the table's keys and their types, billing and throughput, GSIs and
 * LSIs with their projections, TTL attribute, stream and tags. Every change is checked by the
 * backend with the embedded engine's own CreateTable rules, so the message under the form is
 * DynamoDB's, as the user types; the preview draws the collections a few example items would form
 * on the table and each index; the code panel shows the request as CreateTable JSON, AWS CLI and
 * CloudFormation. Create sends the same definition on the connection (refused in Rust on a
 * read-only one), then opens the new table.
 */
import { useMemo, useState } from "react";
import type { Profile, ProjectionType, ScalarType, TableDescription } from "../../ipc/bindings.gen";
import { errorTitle, unwrap, type UiError } from "../../ipc/result";
import { CollectionPreview } from "./CollectionPreview";
import { checkedWithStandIn, draftProblems, plainRefusal, problemOf } from "./checks";
import { CapacityUnitsField } from "../../shared/CapacityUnitsField";
import { emptyDraft, newTableOf, STREAM_VIEW_TYPES, type IndexDraft, type KeyDraft, type TableDraft } from "./model";
import { exampleItemsFor, parseExampleItems, previewGroups } from "./preview";
import { useNewTableCheck } from "./useNewTableCheck";
import { useExistingTables } from "./useExistingTables";
import { useCommands } from "../../ipc/CommandsContext";
import { ViewBoundary } from "../../shared/ViewBoundary";
import { useTabList } from "../../shared/useTabList";
import { ARRIVAL } from "../../shared/arrival";
import "./create.css";

const TYPES: ScalarType[] = ["S", "N", "B"];
const TYPE_NAMES: Record<ScalarType, string> = { S: "String (S)", N: "Number (N)", B: "Binary (B)" };
const PROJECTIONS: ProjectionType[] = ["ALL", "KEYS_ONLY", "INCLUDE"];
type CodeTab = "json" | "cli" | "cloudformation";

/** The request as code, one tab each. */
const CODE_TABS: readonly (readonly [CodeTab, string])[] = [
  ["json", "CreateTable JSON"],
  ["cli", "AWS CLI"],
  ["cloudformation", "CloudFormation"],
];
/** The preview draws at most this many example items (it is a picture, not a table view). */
const PREVIEW_ITEMS = 100;

/** A plain sentence under a field, tied to it by `aria-describedby`. */
function FieldProblem({ id, sentence }: { id: string; sentence: string | null }) {
  if (sentence === null) return null;
  return (
    <span id={id} className="field-error create-field-problem" role="alert" data-testid={id}>
      {sentence}
    </span>
  );
}

function KeyFields({
  label,
  value,
  onChange,
  testId,
  problem = null,
}: {
  label: string;
  value: KeyDraft;
  onChange: (next: KeyDraft) => void;
  testId: string;
  problem?: string | null;
}) {
  return (
    <span className="create-key">
      <input
        aria-label={`${label} name`}
        data-testid={`${testId}-name`}
        value={value.name}
        aria-invalid={problem !== null}
        aria-describedby={problem !== null ? `${testId}-problem` : undefined}
        onChange={(e) => onChange({ ...value, name: e.target.value })}
      />
      <select aria-label={`${label} type`} data-testid={`${testId}-type`} value={value.type} onChange={(e) => onChange({ ...value, type: e.target.value as ScalarType })}>
        {TYPES.map((t) => (
          <option key={t} value={t}>
            {TYPE_NAMES[t]}
          </option>
        ))}
      </select>
      <FieldProblem id={`${testId}-problem`} sentence={problem} />
    </span>
  );
}

function SortKeyFields({
  label,
  value,
  onChange,
  testId,
  required = false,
  problem = null,
}: {
  label: string;
  value: KeyDraft | null;
  onChange: (next: KeyDraft | null) => void;
  testId: string;
  required?: boolean;
  problem?: string | null;
}) {
  return (
    <span className="create-key">
      {!required && (
        <label>
          <input type="checkbox" data-testid={`${testId}-on`} checked={value !== null} onChange={(e) => onChange(e.target.checked ? { name: "sk", type: "S" } : null)} /> {label}
        </label>
      )}
      {value !== null && <KeyFields label={label} value={value} onChange={onChange} testId={testId} problem={problem} />}
    </span>
  );
}

type CreateTableProps = {
  profile: Profile;
  onCreated: (table: TableDescription) => void;
};

/** The New table tab's content: a fault in the form takes down the form alone, never the window. */
export function CreateTableScreen(props: CreateTableProps) {
  return (
    <ViewBoundary what="The New table form">
      <CreateTableForm {...props} />
    </ViewBoundary>
  );
}

function CreateTableForm({ profile, onCreated }: CreateTableProps) {
  const source = useCommands();
  const [draft, setDraft] = useState<TableDraft>(emptyDraft);
  const [nextId, setNextId] = useState(1);
  // null: the example items follow the draft's key names; text once the user edits them.
  const [edited, setEdited] = useState<string | null>(null);
  const [codeTab, setCodeTab] = useState<CodeTab>("json");
  const codeTabs = useTabList(CODE_TABS.map(([id]) => id), codeTab, setCodeTab);
  const [creating, setCreating] = useState(false);
  const [failure, setFailure] = useState<UiError | null>(null);
  const table = useMemo(() => newTableOf(draft), [draft]);
  const existing = useExistingTables(profile.id);
  // A form nobody has typed in yet is not wrong: the name's problems wait for the first keystroke.
  const [nameTouched, setNameTouched] = useState(false);
  const allProblems = useMemo(() => draftProblems(draft, { name: profile.name, tables: existing }), [draft, profile.name, existing]);
  const untouched = !nameTouched && draft.name === "";
  const problems = untouched ? allProblems.filter((p) => p.field !== "name") : allProblems;
  const standIn = checkedWithStandIn(problems);
  const gsiNames = draft.indexes.filter((i) => i.kind === "global").map((i) => i.name || "an unnamed GSI");
  const { check, current } = useNewTableCheck(table);
  const examples = edited ?? exampleItemsFor(table.keys);
  const parsedExamples = useMemo(() => parseExampleItems(examples), [examples]);
  const groups = useMemo(
    () => (parsedExamples.ok ? previewGroups(table, parsedExamples.items.slice(0, PREVIEW_ITEMS)) : []),
    [parsedExamples, table],
  );

  const set = (patch: Partial<TableDraft>) => {
    setFailure(null);
    setDraft((d) => ({ ...d, ...patch }));
  };
  const setIndex = (id: number, patch: Partial<IndexDraft>) => set({ indexes: draft.indexes.map((i) => (i.id === id ? { ...i, ...patch } : i)) });
  const addIndex = (kind: IndexDraft["kind"]) => {
    const n = draft.indexes.filter((i) => i.kind === kind).length + 1;
    const index: IndexDraft = {
      id: nextId,
      kind,
      name: kind === "global" ? `GSI${n}` : `LSI${n}`,
      partition: { name: kind === "global" ? `gsi${n}pk` : draft.partition.name, type: "S" },
      sort: kind === "local" ? { name: `lsi${n}sk`, type: "S" } : null,
      projection: "ALL",
      include: "",
    };
    setNextId((i) => i + 1);
    set({ indexes: [...draft.indexes, index] });
  };

  const problem = check?.problem ?? null;
  const ready = check !== null && current && problem === null && allProblems.length === 0;
  const create = async () => {
    setCreating(true);
    setFailure(null);
    const result = await unwrap(source.createTable(profile.id, table));
    setCreating(false);
    if (result.status === "ok") onCreated(result.data);
    else if (result.status === "error") setFailure(result.error);
  };

  const code =
    check === null
      ? ""
      : standIn
        ? "The request is written out once RCU and WCU hold whole numbers from 1 to 40,000."
      : codeTab === "json"
        ? check.code.createTable + (check.code.updateTimeToLive === null ? "" : `\n// then, once the table is ACTIVE: UpdateTimeToLive\n${check.code.updateTimeToLive}`)
        : codeTab === "cli"
          ? check.code.awsCli
          : check.code.cloudFormation;

  return (
    <div className="create-screen" data-testid="create-table-screen">
      <form
        className="create-form"
        aria-label="New table"
        onSubmit={(event) => {
          event.preventDefault();
          if (ready && !profile.readOnly && allProblems.length === 0) void create();
        }}
      >
        <h2>New table on {profile.name}</h2>
        <fieldset>
          <legend>Table</legend>
          <label className="create-row">
            Table name
            <input
              aria-label="Table name"
              data-testid="create-name"
              value={draft.name}
              autoFocus
              {...ARRIVAL}
              placeholder="3–255 of a-z A-Z 0-9 _ . -"
              aria-invalid={problemOf(problems, "name") !== null}
              aria-describedby={problemOf(problems, "name") !== null ? "create-name-problem" : undefined}
              onChange={(e) => {
                setNameTouched(true);
                set({ name: e.target.value });
              }}
            />
            <FieldProblem id="create-name-problem" sentence={problemOf(problems, "name")} />
          </label>
          <div className="create-row">
            Partition key <KeyFields label="Partition key" value={draft.partition} onChange={(partition) => set({ partition })} testId="create-pk" problem={problemOf(problems, "partition")} />
          </div>
          <div className="create-row">
            <SortKeyFields label="Sort key" value={draft.sort} onChange={(sort) => set({ sort })} testId="create-sk" problem={problemOf(problems, "sort")} />
          </div>
        </fieldset>
        <fieldset>
          <legend>Capacity</legend>
          <label>
            <input type="radio" name="billing" checked={draft.billing === "PAY_PER_REQUEST"} onChange={() => set({ billing: "PAY_PER_REQUEST" })} /> On-demand (PAY_PER_REQUEST)
          </label>
          <label>
            <input type="radio" name="billing" data-testid="create-provisioned" checked={draft.billing === "PROVISIONED"} onChange={() => set({ billing: "PROVISIONED" })} /> Provisioned
          </label>
          {draft.billing === "PROVISIONED" && (
            <>
              <span className="create-row">
                <CapacityUnitsField label="RCU" name="Read capacity units" testId="create-rcu" value={draft.readUnits} onChange={(readUnits) => set({ readUnits })} />
                <CapacityUnitsField label="WCU" name="Write capacity units" testId="create-wcu" value={draft.writeUnits} onChange={(writeUnits) => set({ writeUnits })} />
              </span>
              <span className="muted" data-testid="create-gsi-capacity">
                {gsiNames.length === 0
                  ? "A GSI added below gets the same RCU and WCU as the table, on top of the table's; an LSI uses the table's own."
                  : `${gsiNames.join(", ")} ${gsiNames.length === 1 ? "gets" : "each get"} the same RCU and WCU as the table, on top of the table's: this form has no separate capacity for an index.`}
              </span>
            </>
          )}
        </fieldset>
        <fieldset>
          <legend>Secondary indexes</legend>
          {draft.indexes.map((index) => (
            <div key={index.id} className="create-index" data-testid={`create-index-${index.id}`}>
              <span className="create-index-kind">{index.kind === "global" ? "GSI" : "LSI"}</span>
              <label className="create-field">
                Name
                <input
                  aria-label="Index name"
                  data-testid={`create-index-${index.id}-name`}
                  value={index.name}
                  aria-invalid={problemOf(problems, `index-${index.id}-name`) !== null}
                  aria-describedby={problemOf(problems, `index-${index.id}-name`) !== null ? `create-index-${index.id}-name-problem` : undefined}
                  onChange={(e) => setIndex(index.id, { name: e.target.value })}
                />
              </label>
              <FieldProblem id={`create-index-${index.id}-name-problem`} sentence={problemOf(problems, `index-${index.id}-name`)} />
              {index.kind === "global" ? (
                <span className="create-field" data-testid={`create-index-${index.id}-pk-caption`}>
                  Partition key
                  <KeyFields
                  label="Index partition key"
                  value={index.partition}
                  onChange={(partition) => setIndex(index.id, { partition })}
                  testId={`create-index-${index.id}-pk`}
                  problem={problemOf(problems, `index-${index.id}-pk`)}
                  />
                </span>
              ) : (
                <span className="muted" title="An LSI keeps the table's partition key and can only be made with the table.">
                  {draft.partition.name || "?"} (the table's partition key)
                </span>
              )}
              <SortKeyFields
                label="Index sort key"
                value={index.sort}
                required={index.kind === "local"}
                onChange={(sort) => setIndex(index.id, { sort })}
                testId={`create-index-${index.id}-sk`}
                problem={problemOf(problems, `index-${index.id}-sk`)}
              />
              <label className="create-field">
                Projection
                <select aria-label="Projection" data-testid={`create-index-${index.id}-projection`} value={index.projection} onChange={(e) => setIndex(index.id, { projection: e.target.value as ProjectionType })}>
                  {PROJECTIONS.map((p) => (
                    <option key={p} value={p}>
                      {p}
                    </option>
                  ))}
                </select>
              </label>
              {index.projection === "INCLUDE" && (
                <label className="create-field">
                  Projected attributes
                  <input aria-label="Projected attributes" placeholder="attr1, attr2" data-testid={`create-index-${index.id}-include`} value={index.include} onChange={(e) => setIndex(index.id, { include: e.target.value })} />
                </label>
              )}
              <button type="button" aria-label={`Remove the index ${index.name}`} onClick={() => set({ indexes: draft.indexes.filter((i) => i.id !== index.id) })}>
                Remove
              </button>
            </div>
          ))}
          <button type="button" data-testid="create-add-gsi" onClick={() => addIndex("global")}>
            Add GSI
          </button>{" "}
          <button type="button" data-testid="create-add-lsi" onClick={() => addIndex("local")}>
            Add LSI
          </button>{" "}
          <span className="muted">LSIs can only be made with the table, on its partition key.</span>
        </fieldset>
        <fieldset>
          <legend>Stream, time to live and tags</legend>
          <label className="create-row">
            Stream
            <select aria-label="Stream view type" data-testid="create-stream" value={draft.streamViewType} onChange={(e) => set({ streamViewType: e.target.value as TableDraft["streamViewType"] })}>
              <option value="">Off</option>
              {STREAM_VIEW_TYPES.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </label>
          <label className="create-row">
            TTL attribute
            <input aria-label="TTL attribute" data-testid="create-ttl" placeholder="off (e.g. expiresAt)" value={draft.ttlAttribute} onChange={(e) => set({ ttlAttribute: e.target.value })} />
          </label>
          {draft.tags.map((tag, at) => (
            <span key={at} className="create-row">
              <label className="create-field">
                Tag key
                <input aria-label="Tag key" data-testid={`create-tag-${at}-key`} placeholder="e.g. team" value={tag.key} onChange={(e) => set({ tags: draft.tags.map((t, i) => (i === at ? { ...t, key: e.target.value } : t)) })} />
              </label>
              <label className="create-field">
                Value
                <input aria-label="Tag value" data-testid={`create-tag-${at}-value`} placeholder="e.g. fleet" value={tag.value} onChange={(e) => set({ tags: draft.tags.map((t, i) => (i === at ? { ...t, value: e.target.value } : t)) })} />
              </label>
              <button type="button" aria-label={`Remove the tag ${tag.key}`} onClick={() => set({ tags: draft.tags.filter((_, i) => i !== at) })}>
                Remove
              </button>
            </span>
          ))}
          <button type="button" onClick={() => set({ tags: [...draft.tags, { key: "", value: "" }] })}>
            Add tag
          </button>
        </fieldset>
        <div className="create-verdict" aria-live="polite">
          {untouched && problems.length === 0 && (
            <p className="muted" data-testid="create-hint">
              Name the table to create it.
            </p>
          )}
          {!untouched && (problems.length > 0 || (problem !== null && current)) && (
            <div className="status-error" role="alert" data-testid="create-problem">
              <p data-testid="create-problem-sentence">
                Create is off until this is fixed: {problems.length > 0 ? problems[0]!.sentence : plainRefusal(problem!, table)}
              </p>
              {problem !== null && current && !standIn && (
                <details>
                  <summary>DynamoDB's message</summary>
                  <code>{problem.exception ?? errorTitle(problem.code)}</code> {problem.message}
                </details>
              )}
            </div>
          )}
          {check !== null && current && problem === null && allProblems.length === 0 && failure === null && (
            <p className="test-ok" data-testid="create-ok">
              DynamoDB would accept this table.
            </p>
          )}
          {failure !== null && (
            <div className="status-error" role="alert" data-testid="create-failure">
              <p>
                {failure.exception === "ResourceInUseException"
                  ? `The table was not created: a table named ${table.name} already exists on ${profile.name}.`
                  : `The table was not created: ${failure.exception ?? errorTitle(failure.code)}.`}
              </p>
              <details>
                <summary>DynamoDB's message</summary>
                <code>{failure.exception ?? errorTitle(failure.code)}</code> {failure.message}
              </details>
            </div>
          )}
        </div>
        <div className="create-actions">
          <button type="submit" className="primary" data-testid="create-submit" disabled={!ready || creating || profile.readOnly}>
            {creating ? "Creating…" : "Create table"}
          </button>
          {profile.readOnly && <span className="muted">This connection is read-only: tables cannot be created on it.</span>}
        </div>
      </form>
      <aside className="create-side">
        <section aria-label="Preview">
          <h3>Collections these items would form</h3>
          <details>
            <summary>Example items (DynamoDB JSON, edit them)</summary>
            <textarea aria-label="Example items" className="create-examples" rows={8} value={examples} onChange={(e) => setEdited(e.target.value)} />
          </details>
          {!parsedExamples.ok && (
            <p className="status-error" role="alert">
              {parsedExamples.message}
            </p>
          )}
          {parsedExamples.ok && parsedExamples.items.length > PREVIEW_ITEMS && (
            <p className="muted" data-testid="create-preview-cut">
              The first {PREVIEW_ITEMS} of {parsedExamples.items.length} example items are drawn.
            </p>
          )}
          <CollectionPreview groups={groups} />
        </section>
        <section aria-label="Code">
          <h3>The request as code</h3>
          <div role="tablist" aria-label="Code" className="create-code-tabs">
            {CODE_TABS.map(([id, label]) => (
              <button key={id} type="button" {...codeTabs.tabProps(id)} data-testid={`create-code-${id}`}>
                {label}
              </button>
            ))}
          </div>
          <pre className="create-code" data-testid="create-code">
            {code}
          </pre>
        </section>
      </aside>
    </div>
  );
}
