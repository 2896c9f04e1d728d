/**
 * What a table screen reads when it opens: DescribeTable, and the collection statistics (free on
 * the embedded engine, gathered by a paid scan elsewhere, so they may be missing).
 */
import { useEffect, useRef, useState } from "react";
import type { CollectionStats, TableDescription } from "../../ipc/bindings.gen";
import { unwrap, type Loadable, type UiError } from "../../ipc/result";
import { useCommands } from "../../ipc/CommandsContext";
import { useTableWritten } from "../../shared/useTableWritten";

/**
 * `reload`: a new value reads both again (the connection works again after asking its user);
 * `retry()` reads them again when the user asks (after an error). Once items of the table are
 * written (saved, deleted, pasted, bulk-edited, imported: `useTableWritten`), both are read again
 * in the background, what is on screen kept until the new answers replace it: the header's counts
 * follow the table.
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

  // After a write: read again quietly (no "Loading…": the screen and its views stay as they are);
  // an answer equal to what is shown keeps its object, so nothing below reads again for nothing.
  const written = useTableWritten(profileId, tableName);
  const firstWritten = useRef(written);
  useEffect(() => {
    if (written === firstWritten.current) return;
    let cancelled = false;
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    void unwrap(source.describeTable(profileId, tableName)).then((next) => {
      if (!cancelled && next.status === "ok") setTable((now) => (now.status === "ok" && same(now.data, next.data) ? now : next));
    });
    void unwrap(source.collectionStats(profileId, tableName, null)).then((next) => {
      if (!cancelled && next.status === "ok") setStats((now) => (now.status === "ok" && same(now.data, next.data) ? now : next));
    });
    return () => {
      cancelled = true;
    };
  }, [written]);

  /** What a change returned (a fresh DescribeTable) replaces the description. */
  const setDescription = (description: TableDescription) => setTable({ status: "ok", data: description });
  const retry = () => setTries((n) => n + 1);
  return { table, stats, setStats, setDescription, retry };
}
