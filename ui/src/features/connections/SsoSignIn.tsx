import { useEffect, useRef, useState } from "react";
import type { SsoSignInPrompt } from "../../ipc/bindings.gen";
import { useUnguardedCommands } from "../../ipc/CommandsContext";
import { errorTitle, unwrap, type UiError } from "../../ipc/result";

type Step = { kind: "idle" } | { kind: "starting" } | { kind: "waiting"; prompt: SsoSignInPrompt } | { kind: "failed"; error: UiError };

/**
 * Signs a connection in to IAM Identity Center: "Sign in" opens the verification page in the
 * browser; while the user approves there, the code to compare and the page's address are shown,
 * with Cancel. `onSignedIn` runs once the sign-in is approved.
 */
export function SsoSignIn({
  profileId,
  message,
  onSignedIn,
}: {
  profileId: string;
  /** Why a sign-in is needed (the backend's sentence). */
  message: string;
  onSignedIn: () => void;
}) {
  // The sign-in's own answers are not announced to the app-wide prompt: this is where it is asked.
  const calls = useUnguardedCommands();
  const [step, setStep] = useState<Step>({ kind: "idle" });
  const waiting = useRef(false);

  // Leaving the view while waiting cancels the sign-in.
  useEffect(
    () => () => {
      if (waiting.current) void calls.cancelSsoSignIn(profileId);
    },
    [calls, profileId],
  );

  const start = async () => {
    setStep({ kind: "starting" });
    const started = await unwrap(calls.startSsoSignIn(profileId));
    if (started.status === "error") return setStep({ kind: "failed", error: started.error });
    if (started.status !== "ok") return;
    setStep({ kind: "waiting", prompt: started.data });
    waiting.current = true;
    const finished = await unwrap(calls.finishSsoSignIn(profileId));
    waiting.current = false;
    if (finished.status === "ok") return onSignedIn();
    if (finished.status === "error") {
      setStep(finished.error.code === "CANCELLED" ? { kind: "idle" } : { kind: "failed", error: finished.error });
    }
  };

  return (
    <div className="sso-sign-in" role="group" aria-label="IAM Identity Center sign-in">
      {step.kind === "waiting" ? (
        <>
          <p className="table-list-note" role="status">
            Approve the sign-in in your browser. Check that it shows the code{" "}
            <strong data-testid="sso-user-code">{step.prompt.userCode}</strong>.
          </p>
          <p className="table-list-note muted">
            If no browser opened, go to <span data-testid="sso-verification-uri">{step.prompt.verificationUri}</span>.
          </p>
          <button type="button" onClick={() => void calls.cancelSsoSignIn(profileId)}>
            Cancel
          </button>
        </>
      ) : (
        <>
          <p className="table-list-note">{message}</p>
          <button type="button" disabled={step.kind === "starting"} onClick={() => void start()}>
            Sign in
          </button>
        </>
      )}
      {step.kind === "failed" && (
        <p className="status-error table-list-note" role="alert">
          {errorTitle(step.error.code)}: {step.error.message}
        </p>
      )}
    </div>
  );
}
