import { useEffect, useState } from "react";
import { onCredentialsRenewed } from "../ipc/credentials";

/** A count that grows each time the connection `profileId` works again after asking its user. */
export function useCredentialsRenewed(profileId: string): number {
  const [renewed, setRenewed] = useState(0);
  useEffect(() => onCredentialsRenewed((id) => id === profileId && setRenewed((n) => n + 1)), [profileId]);
  return renewed;
}
