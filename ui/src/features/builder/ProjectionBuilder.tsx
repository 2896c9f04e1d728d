import type { AttributePath, ProjectionState } from "../../ipc/bindings.gen";
import { PathInput } from "./PathInput";

/** A ProjectionExpression: the attributes (or parts of them) to return; none returns everything. */
export function ProjectionBuilder({
  projection,
  onChange,
  suggestions,
}: {
  projection: ProjectionState | null;
  onChange: (projection: ProjectionState | null) => void;
  suggestions: readonly string[];
}) {
  const paths = projection?.paths ?? [];
  const emit = (next: AttributePath[]) => onChange(next.length === 0 ? null : { paths: next });
  const unused = suggestions.find((s) => !paths.some((p) => p.length === 1 && p[0] === s)) ?? "attribute";
  return (
    <div className="projection-builder" role="group" aria-label="Projection">
      <ol className="projection-paths">
        {paths.map((path, i) => (
          <li key={i}>
            <PathInput
              label={`Projected attribute ${i + 1}`}
              path={path}
              suggestions={suggestions}
              onChange={(p) => emit(paths.map((x, j) => (j === i ? p : x)))}
            />
            <button type="button" aria-label={`Remove projected attribute ${i + 1}`} onClick={() => emit(paths.filter((_, j) => j !== i))}>
              ×
            </button>
          </li>
        ))}
      </ol>
      {paths.length === 0 ? <p className="builder-hint">Every attribute is returned.</p> : null}
      <button type="button" onClick={() => emit([...paths, [unused]])}>
        Add attribute
      </button>
    </div>
  );
}
