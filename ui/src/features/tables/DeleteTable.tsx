/**
 * "Delete table…" in a table's Settings: the user types the table's name, then the desktop shell
 * asks in a native dialog the web view cannot answer (`confirmDeleteTable`), and only its yes
 * issues the token `deleteTable` takes — the backend enforces the confirmation, not this form. On
 * a read-only connection the button says why it is unavailable (and the backend refuses anyway).
 */
import { useState } from "react";
import type { Profile } from "../../ipc/bindings.gen";
import { errorTitle, unwrap, type UiError } from "../../ipc/result";
import { useCommands } from "../../ipc/CommandsContext";

type Step = { kind: "closed" } | { kind: "typing" } | { kind: "confirming" } | { kind: "deleting" } | { kind: "declined" };

export function DeleteTable({
  profile,
  table,
  onDeleted,
}: {
  profile: Profile;
  table: string;
  onDeleted: () => void;
}) {
  const source = useCommands();
  const [step, setStep] = useState<Step>({ kind: "closed" });
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<UiError | null>(null);

  if (profile.readOnly) {
    return (
      <div className="delete-table">
        <button type="button" className="danger" disabled data-testid="delete-table">
          Delete table…
        </button>{" "}
        <span className="muted" data-testid="delete-table-why">
          {profile.name} is a read-only connection: DynoTable does not change or delete its tables.
        </span>
      </div>
    );
  }
  if (step.kind === "closed" || step.kind === "declined") {
    return (
      <div className="delete-table">
        <button type="button" className="danger" data-testid="delete-table" onClick={() => setStep({ kind: "typing" })}>
          Delete table…
        </button>
        {step.kind === "declined" && (
          <span className="muted" role="status" data-testid="delete-table-declined">
            {" "}
            Not confirmed: nothing was deleted.
          </span>
        )}
      </div>
    );
  }

  const confirm = async () => {
    setError(null);
    setStep({ kind: "confirming" });
    const token = await unwrap(source.confirmDeleteTable(profile.id, table));
    if (token.status === "error") {
      setError(token.error);
      setStep({ kind: "typing" });
      return;
    }
    if (token.status !== "ok") return;
    if (token.data === null) {
      setTyped("");
      setStep({ kind: "declined" });
      return;
    }
    setStep({ kind: "deleting" });
    const deleted = await unwrap(source.deleteTable(profile.id, table, token.data.token));
    if (deleted.status === "ok") {
      onDeleted();
      return;
    }
    if (deleted.status === "error") setError(deleted.error);
    setStep({ kind: "typing" });
  };

  const matches = typed === table;
  return (
    <form
      className="delete-table confirm"
      role="alertdialog"
      aria-label={`Delete ${table}?`}
      onSubmit={(event) => {
        event.preventDefault();
        if (matches) void confirm();
      }}
    >
      <p>
        Deleting <strong>{table}</strong> deletes every item and index in it, and cannot be undone. Type the table's name to go on; DynoTable then asks
        you once more in a system dialog.
      </p>
      <input
        aria-label="Type the table's name"
        data-testid="delete-table-name"
        autoFocus
        value={typed}
        placeholder={table}
        onChange={(event) => setTyped(event.target.value)}
        autoComplete="off"
        spellCheck={false}
      />
      <button type="submit" className="danger" data-testid="delete-table-confirm" disabled={!matches || step.kind !== "typing"}>
        {step.kind === "confirming" ? "Waiting for the confirmation…" : step.kind === "deleting" ? "Deleting…" : `Delete ${table}`}
      </button>
      <button type="button" onClick={() => setStep({ kind: "closed" })} disabled={step.kind !== "typing"}>
        Keep
      </button>
      {error !== null && (
        <p className="status-error" role="alert" data-testid="delete-table-error">
          {error.exception ?? errorTitle(error.code)}: {error.message}
        </p>
      )}
    </form>
  );
}
