import { useEffect, useMemo, useState } from "react";
import type { commands, TableList as TablePage } from "../../ipc/bindings.gen";
import { errorTitle, unwrap, type Loadable, type UiError } from "../../ipc/result";
import { useCredentialsRenewed } from "../../app/useCredentialsRenewed";
import { MfaPrompt } from "./MfaPrompt";
import { SsoSignIn, type SsoSignInCalls } from "./SsoSignIn";

export type ListTables = typeof commands.listTables;
export type ProvideMfaCode = typeof commands.provideMfaCode;

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

/** A connection's tables, with a search box; choosing one opens it. */
export function TableList({
  profileId,
  listTables,
  provideMfaCode,
  signIn,
  onOpen,
  onNewTable,
}: {
  profileId: string;
  listTables: ListTables;
  provideMfaCode: ProvideMfaCode;
  /** The IAM Identity Center sign-in, for SSO profiles without a usable token. */
  signIn: SsoSignInCalls;
  onOpen: (table: string) => void;
  /** Opens the create-table screen for this connection. */
  onNewTable?: (() => void) | undefined;
}) {
  const [tables, setTables] = useState<Loadable<string[], UiError>>({ status: "loading" });
  const [search, setSearch] = useState("");
  const [attempt, setAttempt] = useState(0);
  // A code or sign-in given in the app-wide prompt lists the tables again.
  const renewed = useCredentialsRenewed(profileId);

  useEffect(() => {
    let cancelled = false;
    void allTableNames(profileId, listTables).then((next) => !cancelled && setTables(next));
    return () => {
      cancelled = true;
    };
  }, [profileId, listTables, attempt, renewed]);

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
          const result = await unwrap(provideMfaCode(profileId, code));
          if (result.status === "ok") setAttempt((n) => n + 1);
          return result.status === "error" ? result.error : null;
        }}
      />
    );
  }
  if (tables.status === "error" && tables.error.code === "SSO_SIGN_IN_REQUIRED") {
    return <SsoSignIn profileId={profileId} message={tables.error.message} calls={signIn} onSignedIn={() => setAttempt((n) => n + 1)} />;
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
