/**
 * The app-wide prompt for a connection that needs its user: whichever view met `MFA_REQUIRED` or
 * `SSO_SIGN_IN_REQUIRED` (ipc/credentials.ts), a dialog names the connection and asks for the
 * MFA code or offers the IAM Identity Center sign-in. Once the connection works again, its views
 * read again (`credentialsRenewed`). One dialog per connection at a time; "Not now" closes it,
 * and the next refused call asks again. The keyboard is the modal dialog's (`useModalDialog`): the
 * focus goes to the code or the sign-in button, Tab stays inside, Escape is "Not now".
 */
import { useEffect, useState } from "react";
import type { Profile } from "../ipc/bindings.gen";
import { useUnguardedCommands } from "../ipc/CommandsContext";
import { onCredentialsNeeded, credentialsRenewed, type CredentialsNeeded } from "../ipc/credentials";
import { unwrap } from "../ipc/result";
import { useModalDialog } from "../shared/useModalDialog";
import { MfaPrompt } from "../features/connections/MfaPrompt";
import { SsoSignIn } from "../features/connections/SsoSignIn";

export function CredentialPrompt({ profiles }: { profiles: readonly Profile[] }) {
  // Its own calls are not announced again: this is where the code or sign-in is asked for.
  const calls = useUnguardedCommands();
  const [asking, setAsking] = useState<CredentialsNeeded | null>(null);
  useEffect(
    () =>
      onCredentialsNeeded((need) => {
        // A dialog already open for this connection keeps its state (a code half typed).
        setAsking((current) => (current !== null && current.profileId === need.profileId && current.code === need.code ? current : need));
      }),
    [],
  );
  const dialog = useModalDialog<HTMLDivElement>(asking !== null, { onEscape: () => setAsking(null) });
  if (asking === null) return null;
  const name = profiles.find((p) => p.id === asking.profileId)?.name ?? asking.profileId;
  const done = () => {
    setAsking(null);
    credentialsRenewed(asking.profileId);
  };
  return (
    <div className="dialog-backdrop">
      <div
        ref={dialog.ref}
        tabIndex={-1}
        role="dialog"
        aria-modal="true"
        aria-label={`Sign in to ${name}`}
        className="dialog"
        data-testid="credential-prompt"
        onKeyDown={dialog.onKeyDown}
      >
        <h2>{asking.code === "MFA_REQUIRED" ? `${name} needs an MFA code` : `${name} needs you to sign in`}</h2>
        {asking.code === "MFA_REQUIRED" ? (
          <MfaPrompt
            message={asking.message}
            submit={async (code) => {
              const result = await unwrap(calls.provideMfaCode(asking.profileId, code));
              if (result.status === "ok") done();
              return result.status === "error" ? result.error : null;
            }}
          />
        ) : (
          <SsoSignIn profileId={asking.profileId} message={asking.message} onSignedIn={done} />
        )}
        <p className="muted">Once it is done, the views of this connection read again.</p>
        <button type="button" onClick={() => setAsking(null)}>
          Not now
        </button>
      </div>
    </div>
  );
}
