import { useState } from "react";
import { useCommands } from "../../ipc/CommandsContext";
import { useSharedEngine } from "./useSharedEngine";
import { errorTitle, unwrap, type UiError } from "../../ipc/result";

/**
 * Shares the embedded engine on a loopback port so the user's own application can use it, and
 * says exactly which endpoint URL to give their SDK.
 */
export function ShareEngine() {
  const source = useCommands();
  const [shared, setShared] = useSharedEngine();
  const [port, setPort] = useState("8000");
  const [error, setError] = useState<UiError | null>(null);
  const [busy, setBusy] = useState(false);

  const portNumber = Number(port);
  const portValid = /^\d+$/.test(port) && portNumber >= 1 && portNumber <= 65535;

  const share = async () => {
    setBusy(true);
    const result = await unwrap(source.shareEngine(portNumber));
    setBusy(false);
    if (result.status === "ok") {
      setShared(result.data);
      setError(null);
    } else if (result.status === "error") {
      setError(result.error);
    }
  };

  const stop = async () => {
    setBusy(true);
    await unwrap(source.stopSharing());
    setBusy(false);
    setShared(null);
  };

  if (shared !== null) {
    return (
      <div className="share-engine" data-testid="share-engine">
        <span>
          Shared at <code data-testid="shared-url">{shared.url}</code> — use it as the endpoint URL of any SDK.
        </span>
        <button type="button" onClick={() => void stop()} disabled={busy}>
          Stop sharing
        </button>
      </div>
    );
  }
  return (
    <div className="share-engine" data-testid="share-engine">
      <label>
        Share on 127.0.0.1 port
        <input
          inputMode="numeric"
          value={port}
          onChange={(event) => setPort(event.target.value)}
          aria-invalid={!portValid}
          size={6}
        />
      </label>
      <button type="button" onClick={() => void share()} disabled={busy || !portValid}>
        Share
      </button>
      {!portValid && <span className="status-error">A port is a number from 1 to 65535.</span>}
      {error !== null && (
        <span className="status-error" role="alert">
          {errorTitle(error.code)}: {error.message}
        </span>
      )}
    </div>
  );
}
