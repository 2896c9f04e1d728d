/**
 * Tests replace the backend with one `CommandsProvider` around what they render. The fake may be
 * partial: a command it does not have fails the test loudly, by name, instead of answering
 * `undefined`.
 */
import { render, type RenderOptions } from "@testing-library/react";
import type { ReactElement, ReactNode } from "react";
import { CommandsProvider, type Commands } from "./CommandsContext";

/** `fake` as the full set of commands: any other command throws when it is looked up. */
export function fakeCommands(fake: Partial<Commands>): Commands {
  return new Proxy(fake, {
    get(target, name, receiver) {
      if (typeof name !== "string" || name === "then" || Reflect.has(target, name)) return Reflect.get(target, name, receiver);
      throw new Error(`command ${name} is not faked in this test`);
    },
  }) as Commands;
}

/** A `wrapper` (for `render` and `renderHook`) providing `fake` as the commands. */
export function commandsWrapper(fake: Partial<Commands>) {
  const commands = fakeCommands(fake);
  return function FakeCommands({ children }: { children: ReactNode }) {
    return <CommandsProvider commands={commands}>{children}</CommandsProvider>;
  };
}

/** `render(ui)` with `fake` as the commands; `rerender` keeps them. */
export function renderWithCommands(ui: ReactElement, fake: Partial<Commands>, options: Omit<RenderOptions, "wrapper"> = {}) {
  return render(ui, { ...options, wrapper: commandsWrapper(fake) });
}
