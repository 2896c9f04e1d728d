import { useCallback, useRef, useState } from "react";
import { Channel } from "@tauri-apps/api/core";
import type { UpdateOffer, UpdateProgress } from "../ipc/bindings.gen";
import { useCommands } from "../ipc/CommandsContext";
import { unwrap, type UiError } from "../ipc/result";

export type UpdateChannelFactory = (onMessage: (progress: UpdateProgress) => void) => Channel<UpdateProgress>;

export const tauriUpdateChannel: UpdateChannelFactory = (onMessage) => {
  const channel = new Channel<UpdateProgress>();
  channel.onmessage = onMessage;
  return channel;
};

/** Where Help → Check for updates stands. */
export type UpdateState =
  | { step: "idle" }
  | { step: "checking" }
  | { step: "upToDate" }
  | { step: "offered"; offer: UpdateOffer }
  | { step: "installing"; offer: UpdateOffer; progress: UpdateProgress | null }
  | { step: "error"; error: UiError; offer: UpdateOffer | null };

/**
 * Help → Check for updates: asks the backend for a newer version only when the user asks, then
 * downloads, checks and installs the one offered (the backend restarts the app when it is done).
 */
export function useUpdates(makeChannel: UpdateChannelFactory = tauriUpdateChannel) {
  const source = useCommands();
  const [state, setState] = useState<UpdateState>({ step: "idle" });
  // A check answered after the dialog closed, or after a newer check began, is dropped.
  const generation = useRef(0);

  const check = useCallback(async () => {
    const mine = ++generation.current;
    setState({ step: "checking" });
    const answer = await unwrap(source.checkForUpdate());
    if (mine !== generation.current) return;
    if (answer.status === "error") setState({ step: "error", error: answer.error, offer: null });
    else if (answer.status === "ok") setState(answer.data === null ? { step: "upToDate" } : { step: "offered", offer: answer.data });
  }, [source]);

  const install = useCallback(
    async (offer: UpdateOffer) => {
      const mine = ++generation.current;
      setState({ step: "installing", offer, progress: null });
      // A report that arrives after the install has answered (they travel apart) is dropped.
      const channel = makeChannel((progress) => {
        if (mine === generation.current) {
          setState((now) => (now.step === "installing" ? { step: "installing", offer, progress } : now));
        }
      });
      const answer = await unwrap(source.installUpdate(offer.version, channel));
      // On success the app restarts and this code never runs again.
      if (mine === generation.current && answer.status === "error") setState({ step: "error", error: answer.error, offer });
    },
    [source, makeChannel],
  );

  const close = useCallback(() => {
    generation.current++;
    setState({ step: "idle" });
  }, []);

  return { state, check, install, close };
}

/** "3.1 MB of 12.0 MB", or the bytes so far when the server did not say how many. */
export function downloadText(progress: UpdateProgress | null): string {
  if (progress === null) return "Starting the download…";
  if (progress.stage === "installing") return "Signature checked. Installing: DynoTable restarts when it is done.";
  const mb = (bytes: number | null) => `${((bytes ?? 0) / 1_000_000).toFixed(1)} MB`;
  return progress.total === null ? `Downloaded ${mb(progress.bytes)}…` : `Downloaded ${mb(progress.bytes)} of ${mb(progress.total)}…`;
}
