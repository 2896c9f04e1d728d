import { useCallback, useEffect, useState } from "react";
import type { AwsProfile, Profile } from "../../ipc/bindings.gen";
import { useUnguardedCommands } from "../../ipc/CommandsContext";
import { unwrap, type Loadable, type UiError } from "../../ipc/result";

/**
 * What the connections sidebar lists: the user's connection profiles, the AWS profiles of their
 * config files and the regions a profile can use, read once; `reload` reads the profiles again
 * (after one was made, changed or deleted). The generated commands, not guarded: the sidebar asks
 * for an MFA code in place.
 */
export function useConnections() {
  const source = useUnguardedCommands();
  const [profiles, setProfiles] = useState<Loadable<Profile[], UiError>>({ status: "loading" });
  const [awsProfiles, setAwsProfiles] = useState<Loadable<AwsProfile[], UiError>>({ status: "loading" });
  const [regions, setRegions] = useState<string[]>([]);

  const reload = useCallback(async () => {
    const next = await unwrap(source.listProfiles());
    setProfiles(next);
    return next;
  }, [source]);

  useEffect(() => {
    let cancelled = false;
    void unwrap(source.listProfiles()).then((next) => !cancelled && setProfiles(next));
    void unwrap(source.listAwsProfiles()).then((next) => !cancelled && setAwsProfiles(next));
    void source.listRegions().then((next) => !cancelled && setRegions(next));
    return () => {
      cancelled = true;
    };
  }, [source]);

  return { profiles, awsProfiles, regions, reload };
}
