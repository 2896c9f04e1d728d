import { useEffect, useState } from "react";
import type { InferredModel, Model, Profile, SampleEstimate, TableList } from "../../ipc/bindings.gen";
import { unwrap, type Loadable, type UiError } from "../../ipc/result";
import { useDebounced } from "../../shared/useDebounced";
import { useCommands } from "../../ipc/CommandsContext";

/** The sample's size the form starts with (items; the backend takes 1 to 5,000). */
export const DEFAULT_SAMPLE = 500;

/**
 * "From a table…": a model inferred from a live table (issue 21 point 5). The connections (the
 * embedded engine first), the chosen one's tables (every page of ListTables), the sample's size
 * and its estimated cost (asked again as the choice settles, before anything is read), then the
 * inference, whose model goes to `onInferred` — after a confirmation when `edited` says the
 * current model has changes it would lose.
 */
export function useInferModel(edited: boolean, onInferred: (model: Model) => void) {
  const source = useCommands();
  const [connections, setConnections] = useState<Loadable<Profile[], UiError>>({ status: "loading" });
  const [profileId, setProfileId] = useState("");
  const [tables, setTables] = useState<Loadable<string[], UiError> | null>(null);
  const [table, setTable] = useState("");
  const [sample, setSample] = useState(DEFAULT_SAMPLE);
  const [estimate, setEstimate] = useState<Loadable<SampleEstimate, UiError> | null>(null);
  const [inferred, setInferred] = useState<Loadable<InferredModel, UiError> | null>(null);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    let live = true;
    void unwrap(source.listProfiles()).then((answer) => {
      if (!live) return;
      const ordered = answer.status === "ok" ? { status: "ok" as const, data: [...answer.data].sort((a, b) => Number(b.connection.kind === "embedded") - Number(a.connection.kind === "embedded")) } : answer;
      setConnections(ordered);
      if (ordered.status === "ok") setProfileId((p) => (p === "" ? (ordered.data[0]?.id ?? "") : p));
    });
    return () => {
      live = false;
    };
  }, [source]);

  useEffect(() => {
    if (profileId === "") return;
    let live = true;
    setTables({ status: "loading" });
    void (async () => {
      const names: string[] = [];
      let start: string | null = null;
      for (;;) {
        const page: Loadable<TableList, UiError> = await unwrap(source.listTables(profileId, start));
        if (!live) return;
        if (page.status !== "ok") {
          setTables(page);
          return;
        }
        names.push(...page.data.names);
        start = page.data.nextStart;
        if (start === null) break;
      }
      setTables({ status: "ok", data: names });
      setTable((t) => (names.includes(t) ? t : (names[0] ?? "")));
    })();
    return () => {
      live = false;
    };
  }, [profileId, source]);

  const settled = useDebounced({ profileId, table, sample }, 250);
  const settledKey = JSON.stringify(settled);
  useEffect(() => {
    if (settled.profileId === "" || settled.table === "") {
      setEstimate(null);
      return;
    }
    let live = true;
    setEstimate({ status: "loading" });
    void unwrap(source.estimateModelSample(settled.profileId, settled.table, settled.sample)).then((answer) => {
      if (live) setEstimate(answer);
    });
    return () => {
      live = false;
    };
  }, [settledKey, source]);

  const run = async () => {
    setConfirming(false);
    setInferred({ status: "loading" });
    const answer = await unwrap(source.inferModel(profileId, table, sample));
    setInferred(answer);
    if (answer.status === "ok") onInferred(answer.data.model);
  };

  return {
    connections,
    profileId,
    chooseProfile: (id: string) => {
      setProfileId(id);
      setTable("");
      setInferred(null);
    },
    tables,
    table,
    chooseTable: (name: string) => {
      setTable(name);
      setInferred(null);
    },
    sample,
    setSample,
    estimate,
    inferred,
    /** Infers at once, or asks first when the current model has edits. */
    start: () => (edited ? setConfirming(true) : void run()),
    confirming,
    confirm: () => void run(),
    cancel: () => setConfirming(false),
  };
}
