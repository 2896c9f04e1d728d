/**
 * Changing a table from its Settings: capacity (on-demand or provisioned units), a GSI added
 * (with its backfill followed from DescribeTable's IndexStatus until ACTIVE) or deleted, the
 * stream and time to live on or off, and tags. Each change is one command (`changeTable`), which
 * sends DynamoDB's one request for it (UpdateTable, UpdateTimeToLive, TagResource/UntagResource)
 * and answers with a fresh description; DynamoDB's refusals are shown with its exception and
 * message. A read-only connection offers no change (and Rust refuses any anyway).
 */
import { useEffect, useRef, useState } from "react";
import { matchesShortcut } from "../../app/shortcuts";
import type { Billing, Profile, ProjectionType, ScalarType, TableChange, TableDescription, TableTag } from "../../ipc/bindings.gen";
import { errorTitle, unwrap, type UiError } from "../../ipc/result";
import { includeList } from "../create/model";
import { indexProblems, tableDefinitions } from "../create/checks";
import { useCommands } from "../../ipc/CommandsContext";
import { rememberTtlChange, useBackfill, useTableTags, useTtlWait } from "./useTableSettings";
import { formatCount, formatCountOf } from "../../shared/format";
import { typedUnits } from "../../shared/capacityUnits";
import { CapacityUnitsField } from "../../shared/CapacityUnitsField";

const STREAM_VIEW_TYPES = ["NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY"];

function Failure({ error, testId }: { error: UiError | null; testId: string }) {
  if (error === null) return null;
  return (
    <p className="status-error" role="alert" data-testid={testId}>
      <strong>{error.exception ?? errorTitle(error.code)}</strong>: {error.message}
    </p>
  );
}

export function TableSettings({
  profile,
  table,
  onChanged,
}: {
  profile: Profile;
  table: TableDescription;
  onChanged: (table: TableDescription) => void;
}) {
  const source = useCommands();
  const [busy, setBusy] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, UiError | null>>({});
  const readOnly = profile.readOnly;

  const apply = async (section: string, change: TableChange) => {
    setBusy(section);
    setErrors((e) => ({ ...e, [section]: null }));
    const result = await unwrap(source.changeTable(profile.id, table.name, change));
    setBusy(null);
    if (result.status === "ok") onChanged(result.data);
    else if (result.status === "error") setErrors((e) => ({ ...e, [section]: result.error }));
    return result.status === "ok";
  };

  useBackfill(profile.id, table, onChanged);


  if (readOnly) {
    return (
      <p className="muted" data-testid="settings-read-only">
        {profile.name} is a read-only connection: DynoTable does not change its tables.
      </p>
    );
  }
  const disabled = busy !== null;
  return (
    <div className="table-settings" data-testid="table-settings">
      <CapacityForm table={table} disabled={disabled} onApply={(billing) => void apply("billing", { kind: "billing", billing })} />
      <Failure error={errors.billing ?? null} testId="settings-billing-error" />

      <IndexForms table={table} disabled={disabled} apply={apply} />
      <Failure error={errors.index ?? null} testId="settings-index-error" />

      <StreamForm table={table} disabled={disabled} apply={apply} />
      <Failure error={errors.stream ?? null} testId="settings-stream-error" />
      <TtlForm profileId={profile.id} table={table} disabled={disabled} apply={apply} />
      <Failure error={errors.ttl ?? null} testId="settings-ttl-error" />

      <TagsForm profileId={profile.id} table={table} disabled={disabled} apply={apply} />
      <Failure error={errors.tags ?? null} testId="settings-tags-error" />
    </div>
  );
}

function CapacityForm({ table, disabled, onApply }: { table: TableDescription; disabled: boolean; onApply: (billing: Billing) => void }) {
  const [mode, setMode] = useState(table.billingMode);
  const [read, setRead] = useState(String(table.provisioned?.[0] ?? 5));
  const [write, setWrite] = useState(String(table.provisioned?.[1] ?? 5));
  const readUnits = typedUnits(read);
  const writeUnits = typedUnits(write);
  const valid = mode === "PAY_PER_REQUEST" || (readUnits.ok && writeUnits.ok);
  const gsis = table.indexes.filter((i) => i.kind === "global").map((i) => i.name);
  // The backend's one UpdateTable gives every GSI the table's units (TableChange "billing"): said
  // before Apply, never done silently.
  const what =
    gsis.length === 0
      ? null
      : mode === "PAY_PER_REQUEST"
        ? `Apply makes the table and its ${gsis.length === 1 ? "GSI" : "GSIs"} ${gsis.join(", ")} on-demand.`
        : `Apply sets the table and its ${gsis.length === 1 ? "GSI" : "GSIs"} ${gsis.join(", ")} to ${readUnits.ok ? readUnits.units : "these"} RCU and ${writeUnits.ok ? writeUnits.units : "these"} WCU each: an index's own capacity cannot be set apart here.`;
  return (
    <form
      className="settings-form"
      aria-label="Capacity"
      onSubmit={(event) => {
        event.preventDefault();
        if (mode === "PAY_PER_REQUEST") onApply({ mode: "onDemand" });
        else if (readUnits.ok && writeUnits.ok) onApply({ mode: "provisioned", read_units: readUnits.units, write_units: writeUnits.units });
      }}
    >
      <h4>Capacity</h4>
      <label>
        <input type="radio" name={`billing-${table.name}`} checked={mode === "PAY_PER_REQUEST"} onChange={() => setMode("PAY_PER_REQUEST")} /> On-demand
      </label>{" "}
      <label>
        <input type="radio" name={`billing-${table.name}`} data-testid="settings-provisioned" checked={mode === "PROVISIONED"} onChange={() => setMode("PROVISIONED")} /> Provisioned
      </label>{" "}
      {mode === "PROVISIONED" && (
        <>
          <CapacityUnitsField label="RCU" name="Read capacity units" testId="settings-rcu" value={read} onChange={setRead} />{" "}
          <CapacityUnitsField label="WCU" name="Write capacity units" testId="settings-wcu" value={write} onChange={setWrite} />{" "}
        </>
      )}
      <button type="submit" data-testid="settings-billing-apply" disabled={disabled || !valid}>
        Apply capacity
      </button>
      {what !== null && (
        <p className="muted" data-testid="settings-gsi-capacity">
          {what}
        </p>
      )}
    </form>
  );
}

function IndexForms({ table, disabled, apply }: { table: TableDescription; disabled: boolean; apply: (section: string, change: TableChange) => Promise<boolean> }) {
  const [name, setName] = useState("");
  const [pk, setPk] = useState({ name: "", type: "S" as ScalarType });
  const [sk, setSk] = useState<{ name: string; type: ScalarType } | null>(null);
  const [projection, setProjection] = useState<ProjectionType>("ALL");
  const [include, setInclude] = useState("");
  const [deleting, setDeleting] = useState<string | null>(null);
  // The confirmation takes the focus on its safe answer (Keep); kept, the focus goes back to the
  // row's Delete… button rather than to the page.
  const keepButton = useRef<HTMLButtonElement>(null);
  const deleteButtons = useRef(new Map<string, HTMLButtonElement>());
  const returnTo = useRef<string | null>(null);
  useEffect(() => {
    if (deleting !== null) keepButton.current?.focus();
    else if (returnTo.current !== null) {
      deleteButtons.current.get(returnTo.current)?.focus();
      returnTo.current = null;
    }
  }, [deleting]);
  const keep = () => {
    returnTo.current = deleting;
    setDeleting(null);
  };
  const gsis = table.indexes.filter((i) => i.kind === "global");
  // The new GSI checked as the New table form checks one (its name, its keys named, their types
  // as the table defines them): Add GSI is off, with the reason, until it would be sent whole.
  const blockers = indexProblems(
    { kind: "global", name, partition: pk, sort: sk },
    "gsi",
    table.indexes.map((i) => i.name),
    tableDefinitions(table.attributeDefinitions, "the table"),
  );
  const blocker = blockers[0]?.sentence ?? null;
  return (
    <div className="settings-form" aria-label="Global secondary indexes">
      <h4>Global secondary indexes</h4>
      {gsis.length === 0 && <p className="muted">No GSI.</p>}
      <ul className="settings-indexes">
        {gsis.map((index) => (
          <li key={index.name} data-testid={`settings-gsi-${index.name}`}>
            <strong>{index.name}</strong> <span className="muted">{index.status ?? ""}</span>
            {(index.status === "CREATING" || index.backfilling === true) && (
              <span className="muted" data-testid={`settings-backfill-${index.name}`}>
                {" "}
                · backfilling{index.itemCount === null ? "" : `: ${formatCount(index.itemCount)} of ${formatCountOf(table.itemCount, "item")} so far`}
              </span>
            )}{" "}
            {deleting === index.name ? (
              <span
                className="confirm"
                role="alertdialog"
                aria-label={`Delete the index ${index.name}?`}
                onKeyDown={(event) => {
                  // Esc keeps the index, as the shortcut sheet says of every confirmation.
                  if (!matchesShortcut("close-dialog", event)) return;
                  event.preventDefault();
                  event.stopPropagation();
                  keep();
                }}
              >
                Delete {index.name}? Queries on it stop working.{" "}
                <button
                  type="button"
                  className="danger"
                  data-testid={`settings-delete-gsi-confirm-${index.name}`}
                  disabled={disabled}
                  onClick={() => void apply("index", { kind: "deleteIndex", name: index.name }).then(keep)}
                >
                  Delete index
                </button>{" "}
                <button type="button" ref={keepButton} data-testid={`settings-delete-gsi-keep-${index.name}`} onClick={keep}>
                  Keep
                </button>
              </span>
            ) : (
              <button
                type="button"
                ref={(button) => {
                  if (button === null) deleteButtons.current.delete(index.name);
                  else deleteButtons.current.set(index.name, button);
                }}
                data-testid={`settings-delete-gsi-${index.name}`}
                disabled={disabled || index.status === "DELETING"}
                onClick={() => setDeleting(index.name)}
              >
                Delete…
              </button>
            )}
          </li>
        ))}
      </ul>
      <form
        aria-label="Add a GSI"
        className="settings-row"
        onSubmit={(event) => {
          event.preventDefault();
          if (blocker !== null) return;
          void apply("index", {
            kind: "addIndex",
            index: {
              name,
              kind: "global",
              keys: { partitionKey: pk, sortKey: sk },
              projection: { type: projection, attributes: projection === "INCLUDE" ? includeList(include) : [] },
            },
          }).then((ok) => {
            if (!ok) return;
            setName("");
            setPk({ name: "", type: "S" });
            setSk(null);
            setProjection("ALL");
            setInclude("");
          });
        }}
      >
        <label className="settings-field">
          Index name <input aria-label="New index name" data-testid="settings-gsi-name" placeholder="e.g. ByDepot" value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="settings-field">
          Partition key <input aria-label="New index partition key" data-testid="settings-gsi-pk" placeholder="attribute name" value={pk.name} onChange={(e) => setPk({ ...pk, name: e.target.value })} />
        </label>
        <label className="settings-field">
          Type{" "}
          <select aria-label="New index partition key type" value={pk.type} onChange={(e) => setPk({ ...pk, type: e.target.value as ScalarType })}>
            <option value="S">S</option>
            <option value="N">N</option>
            <option value="B">B</option>
          </select>
        </label>
        <label>
          <input type="checkbox" checked={sk !== null} onChange={(e) => setSk(e.target.checked ? { name: "", type: "S" } : null)} /> Sort key
        </label>
        {sk !== null && (
          <>
            <label className="settings-field">
              Sort key name <input aria-label="New index sort key" placeholder="attribute name" value={sk.name} onChange={(e) => setSk({ ...sk, name: e.target.value })} />
            </label>
            <label className="settings-field">
              Type{" "}
              <select aria-label="New index sort key type" value={sk.type} onChange={(e) => setSk({ ...sk, type: e.target.value as ScalarType })}>
                <option value="S">S</option>
                <option value="N">N</option>
                <option value="B">B</option>
              </select>
            </label>
          </>
        )}
        <label className="settings-field">
          Projection{" "}
          <select aria-label="New index projection" value={projection} onChange={(e) => setProjection(e.target.value as ProjectionType)}>
            <option value="ALL">ALL</option>
            <option value="KEYS_ONLY">KEYS_ONLY</option>
            <option value="INCLUDE">INCLUDE</option>
          </select>
        </label>
        {projection === "INCLUDE" && (
          <label className="settings-field">
            Projected attributes <input aria-label="New index projected attributes" placeholder="attr1, attr2" value={include} onChange={(e) => setInclude(e.target.value)} />
          </label>
        )}
        <button type="submit" data-testid="settings-gsi-add" disabled={disabled || blocker !== null} aria-describedby={blocker !== null ? "settings-gsi-blocked" : undefined}>
          Add GSI
        </button>
        {blocker !== null && (
          <span className="muted settings-gsi-blocked" id="settings-gsi-blocked" data-testid="settings-gsi-blocked">
            Add GSI is off until this is fixed: {blocker}
          </span>
        )}
      </form>
      <p className="muted">An LSI can only be made with the table.</p>
    </div>
  );
}

/**
 * The stream: turned on with a view type, or off. DynamoDB refuses a second stream on a table that
 * has one ("Table already has an enabled stream"), so the view type is not offered while a stream
 * is on: it is turned off, then on with the new type (a new stream; the old one's records stay
 * readable for 24 hours, docs/dynamodb-rules.md B.17).
 */
function StreamForm({ table, disabled, apply }: { table: TableDescription; disabled: boolean; apply: (section: string, change: TableChange) => Promise<boolean> }) {
  const [viewType, setViewType] = useState<string>("NEW_AND_OLD_IMAGES");
  const on = table.streamViewType;
  return (
    <form
      className="settings-form settings-row"
      aria-label="Stream"
      onSubmit={(event) => {
        event.preventDefault();
        if (on === null) void apply("stream", { kind: "stream", viewType });
      }}
    >
      <h4>Stream</h4>
      {on === null ? (
        <>
          <label>
            View type{" "}
            <select aria-label="Stream view type" data-testid="settings-stream" value={viewType} onChange={(e) => setViewType(e.target.value)}>
              {STREAM_VIEW_TYPES.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" data-testid="settings-stream-apply" disabled={disabled}>
            Turn on
          </button>
        </>
      ) : (
        <>
          <span data-testid="settings-stream-on">On · {on}</span>{" "}
          <button type="button" data-testid="settings-stream-off" disabled={disabled} onClick={() => void apply("stream", { kind: "stream", viewType: null })}>
            Turn off
          </button>
          <span className="muted">
            To change the view type, turn the stream off, then on with the new type: DynamoDB keeps one stream a table. The old stream's records stay
            readable for 24 hours.
          </span>
        </>
      )}
    </form>
  );
}

const clock = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

/** Time to live on an attribute, or off; not offered again within the hour DynamoDB allows (B.7). */
function TtlForm({
  profileId,
  table,
  disabled,
  apply,
}: {
  profileId: string;
  table: TableDescription;
  disabled: boolean;
  apply: (section: string, change: TableChange) => Promise<boolean>;
}) {
  const [ttl, setTtl] = useState(table.ttlAttribute ?? "");
  const wait = useTtlWait(profileId, table);
  const change = (attribute: string | null) =>
    void apply("ttl", { kind: "timeToLive", attribute }).then((ok) => {
      if (ok) rememberTtlChange(profileId, table.name);
    });
  const blocked = disabled || wait !== null;
  return (
    <form
      className="settings-form settings-row"
      aria-label="Time to live"
      onSubmit={(event) => {
        event.preventDefault();
        if (wait === null && ttl.trim() !== "") change(ttl.trim());
      }}
    >
      <h4>Time to live</h4>
      {table.ttlAttribute === null ? (
        <>
          <input aria-label="TTL attribute" data-testid="settings-ttl" placeholder="e.g. expiresAt" value={ttl} onChange={(e) => setTtl(e.target.value)} />
          <button type="submit" data-testid="settings-ttl-on" disabled={blocked || ttl.trim() === ""}>
            Turn on
          </button>
        </>
      ) : (
        <>
          <span>On · attribute {table.ttlAttribute}</span>{" "}
          <button type="button" data-testid="settings-ttl-off" disabled={blocked} onClick={() => change(null)}>
            Turn off
          </button>
        </>
      )}
      {wait === null ? (
        <span className="muted">DynamoDB allows one change of time to live an hour.</span>
      ) : (
        <span className="muted" data-testid="settings-ttl-wait">
          {wait.why === "changed"
            ? `Time to live was changed at ${clock(wait.since)}; DynamoDB allows one change an hour, so the next from ${clock(wait.until)}.`
            : `The table was created at ${clock(wait.since)} with time to live on; DynamoDB allows one change an hour, so the next from ${clock(wait.until)} at the earliest.`}
        </span>
      )}
    </form>
  );
}

function TagsForm({
  profileId,
  table,
  disabled,
  apply,
}: {
  profileId: string;
  table: TableDescription;
  disabled: boolean;
  apply: (section: string, change: TableChange) => Promise<boolean>;
}) {
  const [version, setVersion] = useState(0);
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const { tags, loadError } = useTableTags(profileId, table.name, version);
  const change = (set: TableTag[], remove: string[]) =>
    void apply("tags", { kind: "tags", set, remove }).then((ok) => {
      if (ok) {
        setKey("");
        setValue("");
        setVersion((n) => n + 1);
      }
    });
  return (
    <div className="settings-form" aria-label="Tags">
      <h4>Tags</h4>
      <Failure error={loadError} testId="settings-tags-load-error" />
      {tags !== null && tags.length === 0 && <p className="muted">No tags.</p>}
      <ul className="settings-tags">
        {(tags ?? []).map((tag) => (
          <li key={tag.key} data-testid={`settings-tag-${tag.key}`}>
            <code>{tag.key}</code> = <code>{tag.value}</code>{" "}
            <button type="button" aria-label={`Remove the tag ${tag.key}`} disabled={disabled} onClick={() => change([], [tag.key])}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <form
        className="settings-row"
        aria-label="Add a tag"
        onSubmit={(event) => {
          event.preventDefault();
          change([{ key, value }], []);
        }}
      >
        <label className="settings-field">
          Tag key <input aria-label="Tag key" data-testid="settings-tag-key" placeholder="e.g. team" value={key} onChange={(e) => setKey(e.target.value)} />
        </label>
        <label className="settings-field">
          Value <input aria-label="Tag value" data-testid="settings-tag-value" placeholder="e.g. fleet" value={value} onChange={(e) => setValue(e.target.value)} />
        </label>
        <button type="submit" data-testid="settings-tag-add" disabled={disabled}>
          Set tag
        </button>
      </form>
    </div>
  );
}
