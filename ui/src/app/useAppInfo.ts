import { useEffect, useState } from "react";
import type { AppInfo } from "../ipc/bindings.gen";
import { useCommands } from "../ipc/CommandsContext";
import { unwrap, type Loadable, type UiError } from "../ipc/result";

/** How often to ask again while the embedded engine is still starting. */
const STARTING_POLL_MS = 250;

/**
 * The app's identity and the embedded engine's state, asked of the backend once and again
 * while the engine is still starting, and again (what is shown kept meanwhile) for each new
 * `reload`: tables were created or deleted, so the engine's table count follows.
 */
export function useAppInfo(reload = 0): Loadable<AppInfo, UiError> {
  const source = useCommands();
  const [state, setState] = useState<Loadable<AppInfo, UiError>>({ status: "loading" });

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      const next = await unwrap(source.appInfo());
      if (cancelled) return;
      setState(next);
      if (next.status === "ok" && next.data.engine.state === "starting") {
        timer = setTimeout(ask, STARTING_POLL_MS);
      }
    };
    void ask();
    return () => {
      cancelled = true;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [source, reload]);

  return state;
}
