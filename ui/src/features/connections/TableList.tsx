import { useMemo, useState } from "react";
import { useUnguardedCommands } from "../../ipc/CommandsContext";
import { errorTitle, unwrap } from "../../ipc/result";
import { MfaPrompt } from "./MfaPrompt";
import { SsoSignIn } from "./SsoSignIn";
import { useTableNames } from "./useTableNames";

/** A connection's tables, with a search box; choosing one opens it. */
export function TableList({
  profileId,
  onOpen,
  onNewTable,
}: {
  profileId: string;
  onOpen: (table: string) => void;
  /** Opens the create-table screen for this connection. */
  onNewTable?: (() => void) | undefined;
}) {
  const source = useUnguardedCommands();
  const [search, setSearch] = useState("");
  const [attempt, setAttempt] = useState(0);
  const tables = useTableNames(profileId, attempt);

  const shown = useMemo(() => {
    if (tables.status !== "ok") return [];
    const needle = search.trim().toLowerCase();
    return needle === "" ? tables.data : tables.data.filter((name) => name.toLowerCase().includes(needle));
  }, [tables, search]);

  if (tables.status === "loading") return <p className="muted table-list-note">Loading tables…</p>;
  if (tables.status === "error" && tables.error.code === "MFA_REQUIRED") {
    return (
      <MfaPrompt
        message={tables.error.message}
        submit={async (code) => {
          const result = await unwrap(source.provideMfaCode(profileId, code));
          if (result.status === "ok") setAttempt((n) => n + 1);
          return result.status === "error" ? result.error : null;
        }}
      />
    );
  }
  if (tables.status === "error" && tables.error.code === "SSO_SIGN_IN_REQUIRED") {
    return <SsoSignIn profileId={profileId} message={tables.error.message} onSignedIn={() => setAttempt((n) => n + 1)} />;
  }
  if (tables.status === "error") {
    return (
      <p className="status-error table-list-note" role="alert">
        {errorTitle(tables.error.code)}: {tables.error.message}
      </p>
    );
  }
  return (
    <div className="table-list" data-testid={`tables-${profileId}`}>
      {onNewTable !== undefined && (
        <button type="button" className="link-button new-table" onClick={onNewTable} data-testid={`new-table-${profileId}`}>
          + New table
        </button>
      )}
      <input
        type="search"
        className="table-search"
        placeholder={`Search ${tables.data.length} tables`}
        aria-label="Search tables"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      {shown.length === 0 && <p className="muted table-list-note">{tables.data.length === 0 ? "No tables." : "No table matches."}</p>}
      <ul>
        {shown.map((name) => (
          <li key={name}>
            <button type="button" className="table-link" onClick={() => onOpen(name)} data-testid={`open-table-${name}`}>
              {name}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
