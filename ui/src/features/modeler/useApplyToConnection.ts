import { useEffect, useState } from "react";
import type { AppliedModel, Model, Profile } from "../../ipc/bindings.gen";
import { unwrap, type Loadable, type UiError } from "../../ipc/result";
import { useCommands } from "../../ipc/CommandsContext";

/**
 * Applying the model to a connection (AWS or any endpoint): the connections it can go to (every
 * one but the embedded engine, which has its own apply with sample data), the one chosen, and
 * the answer of CreateTable for the model's tables.
 */
export function useApplyToConnection(onApplied?: () => void) {
  const source = useCommands();
  const [connections, setConnections] = useState<Loadable<Profile[], UiError>>({ status: "loading" });
  const [chosen, setChosen] = useState("");
  const [applied, setApplied] = useState<Loadable<AppliedModel, UiError> | null>(null);

  useEffect(() => {
    let live = true;
    void unwrap(source.listProfiles()).then((answer) => {
      if (!live) return;
      const remote = answer.status === "ok" ? { status: "ok" as const, data: answer.data.filter((p) => p.connection.kind !== "embedded") } : answer;
      setConnections(remote);
      if (remote.status === "ok" && remote.data[0] !== undefined) setChosen((c) => (c === "" ? (remote.data[0]?.id ?? "") : c));
    });
    return () => {
      live = false;
    };
  }, [source]);

  const apply = async (model: Model) => {
    if (chosen === "") return;
    setApplied({ status: "loading" });
    const answer = await unwrap(source.applyModelToConnection(chosen, model));
    setApplied(answer);
    if (answer.status === "ok") onApplied?.();
  };

  const profile = connections.status === "ok" ? connections.data.find((p) => p.id === chosen) : undefined;
  return { connections, chosen, choose: setChosen, profile, applied, apply, reset: () => setApplied(null) };
}
