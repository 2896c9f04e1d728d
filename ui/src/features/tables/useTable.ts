/**
 * What a table screen reads when it opens: DescribeTable, and the collection statistics (free on
 * the embedded engine, gathered by a paid scan elsewhere, so they may be missing).
 */
import { useEffect, useState } from "react";
import type { CollectionStats, TableDescription } from "../../ipc/bindings.gen";
import { unwrap, type Loadable, type UiError } from "../../ipc/result";
import { useCommands } from "../../ipc/CommandsContext";

/**
 * `reload`: a new value reads both again (the connection works again after asking its user);
 * `retry()` reads them again when the user asks (after an error).
 */
export function useTable(profileId: string, tableName: string, reload = 0) {
  const source = useCommands();
  const [tries, setTries] = useState(0);
  const [table, setTable] = useState<Loadable<TableDescription, UiError>>({ status: "loading" });
  const [stats, setStats] = useState<Loadable<CollectionStats, UiError>>({ status: "loading" });

  useEffect(() => {
    let cancelled = false;
    setTable({ status: "loading" });
    setStats({ status: "loading" });
    void unwrap(source.describeTable(profileId, tableName)).then((next) => !cancelled && setTable(next));
    void unwrap(source.collectionStats(profileId, tableName, null)).then((next) => !cancelled && setStats(next));
    return () => {
      cancelled = true;
    };
  }, [profileId, tableName, source, reload, tries]);

  /** What a change returned (a fresh DescribeTable) replaces the description. */
  const setDescription = (description: TableDescription) => setTable({ status: "ok", data: description });
  const retry = () => setTries((n) => n + 1);
  return { table, stats, setStats, setDescription, retry };
}
