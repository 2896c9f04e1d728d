/**
 * What the start screen's steps need: the embedded connection's profile and which of the demo
 * tables it still has (the user may have deleted some, or the engine may still be starting).
 */
import { useEffect, useState } from "react";
import type { Profile, TableList } from "../../ipc/bindings.gen";
import { useCommands } from "../../ipc/CommandsContext";
import { unwrap, type Loadable, type UiError } from "../../ipc/result";

export type DemoTables = { profile: Profile; tables: ReadonlySet<string> };

export function useDemoTables(refresh: unknown = null): Loadable<DemoTables, UiError> {
  const source = useCommands();
  const [state, setState] = useState<Loadable<DemoTables, UiError>>({ status: "loading" });
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      const profiles = await unwrap(source.listProfiles());
      if (cancelled) return;
      if (profiles.status !== "ok") {
        if (profiles.status === "error") setState(profiles);
        return;
      }
      const profile = profiles.data.find((p) => p.connection.kind === "embedded");
      if (profile === undefined) {
        setState({ status: "error", error: { code: "NOT_FOUND", message: "There is no embedded connection.", exception: null } });
        return;
      }
      const names = new Set<string>();
      let start: string | null = null;
      do {
        const page: Loadable<TableList, UiError> = await unwrap(source.listTables(profile.id, start));
        if (cancelled) return;
        if (page.status !== "ok") {
          if (page.status === "error") setState(page);
          return;
        }
        page.data.names.forEach((n: string) => names.add(n));
        start = page.data.nextStart;
      } while (start !== null);
      setState({ status: "ok", data: { profile, tables: names } });
    })();
    return () => {
      cancelled = true;
    };
  }, [source, refresh]);
  return state;
}
