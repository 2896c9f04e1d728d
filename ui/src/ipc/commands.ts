/**
 * The backend's commands as the views call them: the generated ones, `guarded` so that an
 * answer asking for an MFA code or an IAM Identity Center sign-in reaches the app-wide prompt
 * (ipc/credentials.ts). The connections sidebar calls the generated ones directly: it asks in
 * place, beside the connection being opened.
 */
import { commands as generated } from "./bindings.gen";
import { guarded } from "./credentials";

export const commands = guarded(generated);
