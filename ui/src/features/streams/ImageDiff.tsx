/**
 * One stream record's change: every attribute with its old and new value side by side, typed
 * (`TypedValue`: numbers exactly as stored), marked added, removed, changed or unchanged.
 */
import type { StreamRecord } from "../../ipc/bindings.gen";
import { TypedValue } from "../../shared/TypedValue";
import { imageDiff, imagesNote, type Change } from "./records";

const CHANGE_LABEL: Record<Change, string> = { added: "added", removed: "removed", changed: "changed", same: "" };

export function ImageDiff({ record, keyNames, viewType }: { record: StreamRecord; keyNames: readonly string[]; viewType: string | null }) {
  const note = imagesNote(viewType);
  const before = record.oldImage;
  const after = record.newImage;
  // KEYS_ONLY: only the keys, as the record has them.
  const rows = imageDiff(before ?? (after === null ? record.keys : null), after, keyNames);
  return (
    <div className="stream-diff" data-testid="stream-diff">
      <p className="stream-diff-title">
        <span className={`stream-event stream-event-${record.eventName.toLowerCase()}`}>{record.eventName}</span>{" "}
        {record.ttlDeletion ? (
          <span className="stream-ttl" title="userIdentity: type Service, principalId dynamodb.amazonaws.com">
            Deleted by Time to Live
          </span>
        ) : null}{" "}
        <span className="muted">sequence {record.sequenceNumber}</span>
      </p>
      {note !== null && <p className="muted">{note}</p>}
      <table className="stream-diff-table">
        <thead>
          <tr>
            <th scope="col">Attribute</th>
            <th scope="col">Old image</th>
            <th scope="col">New image</th>
            <th scope="col">
              <span className="sr-only">Change</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name} className={`stream-diff-${row.change}`} data-testid={`diff-${row.name}`} data-change={row.change}>
              <th scope="row">{row.name}</th>
              <td>{row.before === undefined ? <span className="muted">—</span> : <TypedValue value={row.before} />}</td>
              <td>{row.after === undefined ? <span className="muted">—</span> : <TypedValue value={row.after} />}</td>
              <td className="stream-diff-change">{CHANGE_LABEL[row.change]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
