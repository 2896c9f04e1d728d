/**
 * What the editor's completion knows about a connection: its table names (ListTables, every
 * page), each named table's key and index attributes (DescribeTable, asked once a table appears
 * in the text), the attribute names seen in results, and DynamoDB's reserved words (served by the
 * backend, which checks expressions against the same list).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { TableList } from "../../ipc/bindings.gen";
import type { Item } from "../../shared/attributeValue";
import { unwrap, type Loadable, type UiError } from "../../ipc/result";
import { partiqlCompletion, tablesIn, type CompletionCatalog } from "./completion";
import { useCommands } from "../../ipc/CommandsContext";


export function useCatalog(profileId: string, text: string) {
  const source = useCommands();
  const tables = useRef<string[]>([]);
  // Whether the table list was read whole (a failed page leaves it unknown).
  const listed = useRef(false);
  const reserved = useRef<Set<string>>(new Set());
  const attributes = useRef(new Map<string, string[]>());
  const keys = useRef(new Map<string, string[]>());
  const seen = useRef(new Map<string, Set<string>>());
  const asked = useRef(new Set<string>());
  const [, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    void (async () => {
      const words = await unwrap(source.reservedWords());
      if (live && words.status === "ok") reserved.current = new Set(words.data.map((w) => w.toUpperCase()));
      let start: string | null = null;
      let whole = false;
      const names: string[] = [];
      do {
        const page: Loadable<TableList, UiError> = await unwrap(source.listTables(profileId, start));
        if (!live || page.status !== "ok") break;
        names.push(...page.data.names);
        start = page.data.nextStart;
        whole = start === null;
      } while (start !== null);
      if (live) {
        tables.current = names;
        listed.current = whole;
        setVersion((v) => v + 1);
      }
    })();
    return () => {
      live = false;
    };
  }, [source, profileId]);

  // Describe each known table the text names, once.
  const named = tablesIn(text).filter((t) => tables.current.includes(t));
  const namedKey = named.join("\u0000");
  useEffect(() => {
    for (const table of named) {
      if (asked.current.has(table)) continue;
      asked.current.add(table);
      void unwrap(source.describeTable(profileId, table)).then((described) => {
        if (described.status !== "ok") return;
        const k = described.data.keys;
        const keyNames = [k.partitionKey.name, ...(k.sortKey ? [k.sortKey.name] : [])];
        keys.current.set(table, keyNames);
        attributes.current.set(table, [...new Set([...keyNames, ...described.data.attributeDefinitions.map((a) => a.name)])]);
        setVersion((v) => v + 1);
      });
    }
  }, [namedKey, source, profileId]);

  /** Adds the attribute names of result items (for the table the statement named). */
  const see = useCallback((table: string | null, items: readonly Item[]) => {
    const bucket = seen.current.get(table ?? "") ?? new Set<string>();
    for (const item of items) for (const name of Object.keys(item)) bucket.add(name);
    seen.current.set(table ?? "", bucket);
  }, []);

  const completion = useMemo(() => {
    const catalog: CompletionCatalog = {
      tables: () => tables.current,
      reserved: () => reserved.current,
      attributes: (table) => {
        if (table === null) return [...new Set([...seen.current.values()].flatMap((s) => [...s]))];
        return [...new Set([...(attributes.current.get(table) ?? []), ...(seen.current.get(table) ?? [])])];
      },
    };
    return partiqlCompletion(catalog);
  }, []);

  return {
    completion,
    see,
    keysOf: (table: string | null) => (table === null ? [] : (keys.current.get(table) ?? [])),
    /** The connection's table names, once listed whole; null until then. */
    tableNames: listed.current ? tables.current : null,
  };
}
