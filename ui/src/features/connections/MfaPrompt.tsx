import { useState } from "react";
import { errorTitle, type UiError } from "../../ipc/result";

/** Asks for the MFA code a role needs, and says what AWS answered when it is refused. */
export function MfaPrompt({ message, submit }: { message: string; submit: (code: string) => Promise<UiError | null> }) {
  const [code, setCode] = useState("");
  const [error, setError] = useState<UiError | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="mfa-prompt"
      aria-label="MFA code"
      onSubmit={(event) => {
        event.preventDefault();
        setBusy(true);
        void submit(code).then((failure) => {
          setBusy(false);
          setError(failure);
        });
      }}
    >
      <p className="table-list-note">{message}</p>
      <input
        inputMode="numeric"
        autoComplete="one-time-code"
        aria-label="MFA code"
        placeholder="123456"
        value={code}
        onChange={(event) => setCode(event.target.value)}
        size={8}
      />
      <button type="submit" disabled={busy || code.trim() === ""}>
        Assume role
      </button>
      {error !== null && (
        <p className="status-error table-list-note" role="alert">
          {errorTitle(error.code)}: {error.message}
        </p>
      )}
    </form>
  );
}
