/**
 * The table's saved builder requests and filters: save what the query bar holds under a name,
 * load one back into the bar, delete. Kept per connection and table by the backend.
 */
import { useState } from "react";
import type { ConditionState, ReadRequest, SavedExpression } from "../../ipc/bindings.gen";
import { unwrap } from "../../ipc/result";
import { useCommands } from "../../ipc/CommandsContext";
import { useSavedExpressions } from "./useSavedExpressions";
import "./SavedRequests.css";

/** Saved requests and filters of the table: save the current one under a name, load, delete. */
export function SavedRequests({
  profileId,
  table,
  request,
  filter,
  onLoad,
}: {
  profileId: string;
  table: string;
  /** The bar's request; null while its fields cannot make one. */
  request: ReadRequest | null;
  filter: ConditionState | null;
  onLoad: (saved: SavedExpression) => void;
}) {
  const source = useCommands();
  const [saved, setSaved] = useState<SavedExpression[]>([]);
  const [name, setName] = useState("");
  const [what, setWhat] = useState<"request" | "filter">("request");
  const [problem, setProblem] = useState<string | null>(null);

  const reload = useSavedExpressions(profileId, table, setSaved, setProblem);

  const save = async () => {
    if (request === null && !(what === "filter" && filter)) return;
    const content =
      what === "filter" && filter
        ? ({ kind: "expression", state: { parameter: "FilterExpression", state: filter } } as const)
        : ({ kind: "request", request: request! } as const);
    const result = await unwrap(source.saveExpression(profileId, table, name, content));
    if (result.status === "error") setProblem(result.error.message);
    else {
      setProblem(null);
      setName("");
      await reload();
    }
  };

  return (
    <details className="saved-expressions">
      <summary>Saved ({saved.length})</summary>
      <div className="saved-form">
        <input aria-label="Name to save under" value={name} placeholder="name" onChange={(e) => setName(e.target.value)} />
        <select aria-label="What to save" value={what} onChange={(e) => setWhat(e.target.value as "request" | "filter")}>
          <option value="request">the whole request</option>
          <option value="filter" disabled={!filter}>
            the filter
          </option>
        </select>
        <button type="button" onClick={save} disabled={name.trim() === "" || (what === "request" && request === null)}>
          Save
        </button>
      </div>
      {problem ? (
        <p className="expression-error" role="alert">
          {problem}
        </p>
      ) : null}
      <ul className="saved-list">
        {saved.map((s) => (
          <li key={s.id}>
            <button type="button" className="link-button" onClick={() => onLoad(s)}>
              {s.name}
            </button>
            <span className="builder-hint">{s.content.kind === "request" ? s.content.request.operation : s.content.state.parameter}</span>
            <button
              type="button"
              aria-label={`Delete saved ${s.name}`}
              onClick={async () => {
                await unwrap(source.deleteSavedExpression(s.id));
                await reload();
              }}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}
