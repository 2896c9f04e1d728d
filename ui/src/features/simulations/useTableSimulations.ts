/**
 * What the Simulations section of a table's Settings reads and changes: the embedded engine's
 * simulation settings with what they did to the table (`tableSimulations`), polled while the
 * section is shown, and a switch of the settings (`setSimulations`, at once, for every table).
 *
 * Polling never overlaps and never blocks the window: the next call is scheduled POLL_MS after
 * the previous answer arrives, so it runs at most once a second, and stops when the section is
 * hidden or the answer will not change (another connection, a table that is gone).
 */
import { useCallback, useEffect, useState } from "react";
import type { SimulationSettings, TableSimulations } from "../../ipc/bindings.gen";
import { unwrap, type Loadable, type UiError } from "../../ipc/result";
import { useCommands } from "../../ipc/CommandsContext";

/** The shortest time between two reads of the counts. */
export const POLL_MS = 1000;

/** Errors that polling again would only repeat. */
const FINAL: readonly UiError["code"][] = ["EMBEDDED_ONLY", "NOT_FOUND", "PROFILE_NOT_FOUND"];

export function useTableSimulations({
  profileId,
  table,
  active,
}: {
  profileId: string;
  table: string;
  /** Whether the section is on screen: it is read only then. */
  active: boolean;
}) {
  const source = useCommands();
  const [state, setState] = useState<Loadable<TableSimulations, UiError>>({ status: "loading" });
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<UiError | null>(null);

  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      const next = await unwrap(source.tableSimulations(profileId, table));
      if (stopped) return;
      setState(next);
      if (next.status === "error" && FINAL.includes(next.error.code)) return;
      timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [profileId, table, source, active]);

  /** Switches the settings; `true` once the engine runs them. */
  const apply = useCallback(
    async (settings: SimulationSettings) => {
      setSaving(true);
      setSaveError(null);
      const result = await unwrap(source.setSimulations(profileId, settings));
      setSaving(false);
      if (result.status === "error") {
        setSaveError(result.error);
        return false;
      }
      if (result.status !== "ok") return false;
      const status = result.data;
      setState((s) =>
        s.status === "ok" ? { status: "ok", data: { ...s.data, settings: status.settings, throttledOnEveryTable: status.throttledRequests } } : s,
      );
      return true;
    },
    [profileId, source],
  );

  return { state, saving, saveError, apply };
}
