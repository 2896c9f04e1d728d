import { useEffect, useState } from "react";
import type { TableList as TablePage } from "../../ipc/bindings.gen";
import { useUnguardedCommands, type Commands } from "../../ipc/CommandsContext";
import { unwrap, type Loadable, type UiError } from "../../ipc/result";
import { useCredentialsRenewed } from "../../app/useCredentialsRenewed";

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
export function useTableNames(profileId: string, attempt: number): Loadable<string[], UiError> {
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
