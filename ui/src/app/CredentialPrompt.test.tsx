import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import type { Profile } from "../ipc/bindings.gen";
import { guarded, onCredentialsRenewed } from "../ipc/credentials";
import { CredentialPrompt } from "./CredentialPrompt";
import type { Commands } from "../ipc/CommandsContext";
import { renderWithCommands } from "../ipc/testCommands";

afterEach(cleanup);

const prod: Profile = {
  id: "p-prod",
  name: "prod",
  color: "#d33",
  region: "eu-west-1",
  readOnly: false,
  connection: { kind: "aws-profile", profileName: "prod-admin" },
};

function calls(): Commands {
  return {
    provideMfaCode: vi.fn(async () => ({ status: "ok" as const, data: null })),
    startSsoSignIn: vi.fn(),
    finishSsoSignIn: vi.fn(),
    cancelSsoSignIn: vi.fn(),
  } as unknown as Commands;
}

/** A view's call on the connection, answered `code`. */
async function viewMeets(code: "MFA_REQUIRED" | "SSO_SIGN_IN_REQUIRED") {
  const view = guarded({ describeTable: async (_p: string) => ({ status: "error" as const, error: { code, message: "The session has expired.", exception: null } }) });
  await act(async () => {
    await view.describeTable("p-prod");
  });
}

describe("CredentialPrompt", () => {
  it("asks for an MFA code when any view meets MFA_REQUIRED, then tells the connection's views to read again", async () => {
    const c = calls();
    const renewed: string[] = [];
    const stop = onCredentialsRenewed((id) => renewed.push(id));
    renderWithCommands(<CredentialPrompt profiles={[prod]} />, c);
    expect(screen.queryByRole("dialog")).toBeNull();
    await viewMeets("MFA_REQUIRED");
    const dialog = screen.getByRole("dialog", { name: "Sign in to prod" });
    expect(dialog.textContent).toContain("prod needs an MFA code");
    expect(dialog.textContent).toContain("The session has expired.");
    fireEvent.change(screen.getByLabelText("MFA code", { selector: "input" }), { target: { value: "123456" } });
    fireEvent.click(screen.getByRole("button", { name: "Assume role" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(c.provideMfaCode).toHaveBeenCalledWith("p-prod", "123456");
    expect(renewed).toEqual(["p-prod"]);
    stop();
  });

  it("offers the IAM Identity Center sign-in for SSO_SIGN_IN_REQUIRED, and can be put off", async () => {
    renderWithCommands(<CredentialPrompt profiles={[prod]} />, calls());
    await viewMeets("SSO_SIGN_IN_REQUIRED");
    expect(screen.getByRole("dialog").textContent).toContain("prod needs you to sign in");
    expect(screen.getByRole("button", { name: /Sign in/ })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Not now" }));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("is a modal dialog for the keyboard: the focus goes to the code, Tab stays inside, Escape puts it off and gives the focus back", async () => {
    const opener = document.createElement("button");
    opener.textContent = "Refresh";
    document.body.append(opener);
    opener.focus();
    renderWithCommands(<CredentialPrompt profiles={[prod]} />, calls());
    await viewMeets("MFA_REQUIRED");
    const dialog = screen.getByRole("dialog", { name: "Sign in to prod" });
    const code = screen.getByLabelText("MFA code", { selector: "input" });
    expect(document.activeElement).toBe(code);
    // Shift+Tab from the first control goes round to the last one ("Not now"), not out of the dialog.
    fireEvent.keyDown(code, { key: "Tab", shiftKey: true });
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Not now" }));
    fireEvent.keyDown(document.activeElement!, { key: "Tab" });
    expect(document.activeElement).toBe(code);
    fireEvent.keyDown(dialog, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(opener);
    opener.remove();
  });
});
