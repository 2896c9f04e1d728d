import { useEffect, useMemo, useState } from "react";
import type { TableList as TablePage } from "../../ipc/bindings.gen";
import { useUnguardedCommands, type Commands } from "../../ipc/CommandsContext";
import { errorTitle, unwrap, type Loadable, type UiError } from "../../ipc/result";
import { useCredentialsRenewed } from "../../app/useCredentialsRenewed";
import { MfaPrompt } from "./MfaPrompt";
import { SsoSignIn } from "./SsoSignIn";

type ListTables = Commands["listTables"];

/** Every table name of a connection: ListTables page after page (100 names a page). */
export async function allTableNames(profileId: string, listTables: ListTables): Promise<Loadable<string[], UiError>> {
  const names: string[] = [];
  let start: string | null = null;
  do {
    const page: Loadable<TablePage, UiError> = await unwrap(listTables(profileId, start));
    if (page.status === "error") return page;
    if (page.status !== "ok") return { status: "loading" };
    names.push(...page.data.names);
    start = page.data.nextStart;
  } while (start !== null);
  return { status: "ok", data: names };
}

/**
 * Every table name of a connection, read again when `attempt` changes (after an MFA code or a
 * sign-in given here) or a code or sign-in was given in the app-wide prompt. The generated
 * commands, not guarded: the sidebar asks for an MFA code in place.
 */
function useTableNames(profileId: string, attempt: number): Loadable<string[], UiError> {
  const source = useUnguardedCommands();
  const [tables, setTables] = useState<Loadable<string[], UiError>>({ status: "loading" });
  const renewed = useCredentialsRenewed(profileId);
  useEffect(() => {
    let cancelled = false;
    void allTableNames(profileId, source.listTables).then((next) => !cancelled && setTables(next));
    return () => {
      cancelled = true;
    };
  }, [profileId, source, attempt, renewed]);
  return tables;
}

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
