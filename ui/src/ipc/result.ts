import type { CommandError, ErrorCode } from "./bindings.gen";

/**
 * An error as the UI handles it: a backend `CommandError`, or `IPC_FAILURE` when the call never
 * reached a command (the backend is gone, or refused the call).
 */
export type UiError = { code: ErrorCode | "IPC_FAILURE"; message: string; exception?: string | null };

/** A value that is being fetched from the backend, has arrived, or failed with a typed error. */
export type Loadable<T, E> = { status: "loading" } | { status: "ok"; data: T } | { status: "error"; error: E };

/**
 * Turns a generated command call into a `Loadable`. Errors the command returned keep their
 * typed code; a failure of the IPC itself (a rejected promise) becomes `IPC_FAILURE`.
 */
export async function unwrap<T>(
  call: Promise<{ status: "ok"; data: T } | { status: "error"; error: CommandError }>,
): Promise<Loadable<T, UiError>> {
  try {
    return await call;
  } catch (err) {
    return { status: "error", error: { code: "IPC_FAILURE", message: String(err) } };
  }
}

/**
 * A short, plain title for an error; the message carries the details. Given the whole error, a
 * `VALIDATION` says where the check happened: DynamoDB named an exception when it refused the
 * request; without one, DynoTable's own check refused it before asking DynamoDB (a file that does
 * not parse, the item editor's check, a name that clashes). Given the code alone, it does not
 * claim either.
 */
export function errorTitle(error: UiError["code"] | Pick<UiError, "code" | "exception">): string {
  const code = typeof error === "string" ? error : error.code;
  switch (code) {
    case "ENGINE_UNAVAILABLE":
      return "The embedded engine is not available";
    case "INVALID_PROFILE":
      return "The connection profile is not valid";
    case "PROFILE_NOT_FOUND":
      return "The connection profile no longer exists";
    case "PROFILE_NAME_TAKEN":
      return "Another connection profile has that name";
    case "PROFILE_STORAGE":
      return "The connection profiles could not be read or saved";
    case "KEYCHAIN_UNAVAILABLE":
      return "The system keychain could not be used";
    case "AWS_CONFIG_UNREADABLE":
      return "The AWS config files could not be read";
    case "VALIDATION":
      if (typeof error === "string" || error.exception === undefined) return "Not valid";
      return error.exception === null ? "DynoTable's own check refused this" : "DynamoDB refused the request as invalid";
    case "CONDITION_FAILED":
      return "The item changed, or its condition did not hold";
    case "NOT_FOUND":
      return "The table, index or item does not exist";
    case "AUTH_EXPIRED":
      return "The sign-in has expired";
    case "ACCESS_DENIED":
      return "These credentials may not do this";
    case "NO_CREDENTIALS":
      return "No credentials were found for this connection";
    case "THROTTLED":
      return "DynamoDB throttled the request";
    case "NETWORK":
      return "The endpoint could not be reached";
    case "READ_ONLY":
      return "The connection is read-only";
    case "CANCELLED":
      return "Cancelled";
    case "INTERNAL":
      return "Something went wrong inside DynoTable";
    case "PORT_UNAVAILABLE":
      return "That port cannot be used";
    case "MFA_REQUIRED":
      return "This role asks for an MFA code";
    case "FILE_NOT_CHOSEN":
      return "Choose the file first";
    case "NOT_CONFIRMED":
      return "Not confirmed";
    case "STREAM_OFF":
      return "The table has no stream";
    case "SSO_SIGN_IN_REQUIRED":
      return "Sign in to IAM Identity Center";
    case "EMBEDDED_ONLY":
      return "Only the embedded engine does this";
    case "UPDATE_UNAVAILABLE":
      return "No update can be installed";
    case "UPDATE_REJECTED":
      return "The update was refused";
    case "IPC_FAILURE":
      return "The app's backend did not answer";
  }
}
