/**
 * A connection that needs its user before it can answer: an MFA-protected role whose session ran
 * out (`MFA_REQUIRED`), or an IAM Identity Center profile without a usable token
 * (`SSO_SIGN_IN_REQUIRED`). Any view can meet one, so the commands the views call are `guarded`:
 * such an answer is announced here with the connection it came from (every command of a
 * connection takes its profile id first), the app-wide prompt (app/CredentialPrompt.tsx) asks
 * the user, and once the connection works again it announces `renewed` so the views of that
 * connection read again.
 */
import type { CommandError } from "./bindings.gen";

export type CredentialsNeeded = { profileId: string; code: "MFA_REQUIRED" | "SSO_SIGN_IN_REQUIRED"; message: string };

type Listener<T> = (event: T) => void;
const needed = new Set<Listener<CredentialsNeeded>>();
const renewals = new Set<Listener<string>>();

export function onCredentialsNeeded(listener: Listener<CredentialsNeeded>): () => void {
  needed.add(listener);
  return () => needed.delete(listener);
}

export function onCredentialsRenewed(listener: Listener<string>): () => void {
  renewals.add(listener);
  return () => renewals.delete(listener);
}

/** The connection `profileId` works again: its views read again. */
export function credentialsRenewed(profileId: string): void {
  for (const listener of [...renewals]) listener(profileId);
}

function announce(args: unknown[], result: unknown): void {
  const error = (result as { status?: string; error?: CommandError } | null)?.error;
  if ((result as { status?: string } | null)?.status !== "error" || error === undefined) return;
  if (error.code !== "MFA_REQUIRED" && error.code !== "SSO_SIGN_IN_REQUIRED") return;
  const profileId = args[0];
  if (typeof profileId !== "string") return;
  for (const listener of [...needed]) listener({ profileId, code: error.code, message: error.message });
}

/** `calls` with every answer that needs the user announced; the answers themselves unchanged. */
export function guarded<T extends object>(calls: T): T {
  return new Proxy(calls, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const answer: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (answer instanceof Promise) return answer.then((result: unknown) => (announce(args, result), result));
        return answer;
      };
    },
  });
}
