import { useEffect, useState } from "react";
import type { SharedEngine } from "../../ipc/bindings.gen";
import { useCommands } from "../../ipc/CommandsContext";
import { unwrap } from "../../ipc/result";

/** Where the embedded engine is shared, as the backend says when the view opens; `null`: it is not. */
export function useSharedEngine() {
  const source = useCommands();
  const [shared, setShared] = useState<SharedEngine | null>(null);
  useEffect(() => {
    let cancelled = false;
    void unwrap(source.sharedEngine()).then((result) => !cancelled && result.status === "ok" && setShared(result.data));
    return () => {
      cancelled = true;
    };
  }, [source]);
  return [shared, setShared] as const;
}
