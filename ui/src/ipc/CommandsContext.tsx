/**
 * The backend's commands, from one place. Every view and hook of the app takes the commands it
 * calls from this context instead of importing them or being handed them as a prop, so there is
 * one way in: the app renders without a provider and gets the generated commands
 * (bindings.gen.ts); a test wraps what it renders in one `CommandsProvider` with its fakes and
 * thereby replaces every call made anywhere below it (ipc/testCommands.tsx).
 *
 * `useCommands()` is what the views call: the context's commands `guarded`, so that an answer
 * asking for an MFA code or an IAM Identity Center sign-in reaches the app-wide prompt
 * (ipc/credentials.ts). `useUnguardedCommands()` gives the same commands without that: only the
 * connections sidebar, which asks for the MFA code in place beside the connection being opened,
 * and the credential prompt itself, whose own calls must not announce a new prompt, use it.
 */
import { createContext, useContext, type ReactNode } from "react";
import { commands as generated } from "./bindings.gen";
import { guarded } from "./credentials";
import { announcingWrites } from "./tableWrites";

/** Every command of the backend, as the generated bindings type them. */
export type Commands = typeof generated;

const CommandsContext = createContext<Commands>(generated);

/** The commands every view below calls: the app's real ones by default, a test's fakes. */
export function CommandsProvider({ commands, children }: { commands: Commands; children?: ReactNode }) {
  return <CommandsContext.Provider value={commands}>{children}</CommandsContext.Provider>;
}

/** One guarded view per context value, so every component gets the same (stable) object. */
const guardedViews = new WeakMap<Commands, Commands>();

function guardedView(calls: Commands): Commands {
  let view = guardedViews.get(calls);
  if (view === undefined) {
    // And every write to a table announced, so the figures shown of it follow (ipc/tableWrites.ts).
    view = announcingWrites(guarded(calls));
    guardedViews.set(calls, view);
  }
  return view;
}

/** The backend's commands, with answers that need the user announced to the app-wide prompt. */
export function useCommands(): Commands {
  return guardedView(useContext(CommandsContext));
}

/**
 * The same commands without the announcing: for the connections sidebar (which asks for an MFA
 * code in place) and the credential prompt. Every other view calls `useCommands()`.
 */
export function useUnguardedCommands(): Commands {
  return useContext(CommandsContext);
}
