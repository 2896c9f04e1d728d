import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { ConnectionsSidebar } from "./ConnectionsSidebar";
import type { Commands } from "../../ipc/CommandsContext";
import type { Profile, ProfileInput } from "../../ipc/bindings.gen";
import { renderWithCommands } from "../../ipc/testCommands";
import { tabbables } from "../../shared/useModalDialog";

const embedded: Profile = {
  id: "embedded",
  name: "Embedded",
  color: "#4f7cff",
  region: "local",
  readOnly: false,
  connection: { kind: "embedded" },
};
const prod: Profile = {
  id: "p1",
  name: "prod",
  color: "#ff8800",
  region: "eu-west-1",
  readOnly: true,
  connection: { kind: "aws-profile", profileName: "prod" },
};

function source(overrides: Partial<Commands> = {}) {
  return {
    listProfiles: vi.fn(async () => ({ status: "ok" as const, data: [embedded, prod] })),
    listAwsProfiles: vi.fn(async () => ({
      status: "ok" as const,
      data: [{ name: "prod", region: "eu-west-1", endpointUrl: null, credentials: { kind: "sso" as const, session: "corp", accountId: null, roleName: null } }],
    })),
    testConnection: vi.fn(async () => ({
      status: "ok" as const,
      data: { ok: false, problem: "EXPIRED_CREDENTIALS" as const, message: "The sign-in session has expired. Renew it with: aws sso login --profile prod", sampleTable: null },
    })),
    listTables: vi.fn(async (profileId: string, start: string | null) =>
      // Two pages for the embedded engine, to prove every page is read.
      start === null
        ? { status: "ok" as const, data: { names: profileId === "embedded" ? ["Orders", "Pets"] : ["prod-users"], nextStart: profileId === "embedded" ? "Pets" : null } }
        : { status: "ok" as const, data: { names: ["Telemetry"], nextStart: null } },
    ),
    createProfile: vi.fn(async (input: ProfileInput) => ({ status: "ok" as const, data: { ...prod, id: "p2", name: input.name } })),
    updateProfile: vi.fn(async (_id: string, input: ProfileInput) => ({ status: "ok" as const, data: { ...prod, name: input.name } })),
    deleteProfile: vi.fn(async () => ({ status: "ok" as const, data: null })),
    listRegions: vi.fn(async () => ["us-east-1", "eu-west-1"]),
    shareEngine: vi.fn(async (port: number) => ({ status: "ok" as const, data: { url: `http://127.0.0.1:${port}`, port } })),
    stopSharing: vi.fn(async () => ({ status: "ok" as const, data: null })),
    sharedEngine: vi.fn(async () => ({ status: "ok" as const, data: null })),
    provideMfaCode: vi.fn(async () => ({ status: "ok" as const, data: null })),
    startSsoSignIn: vi.fn(async () => ({
      status: "ok" as const,
      data: { userCode: "ABCD-EFGH", verificationUri: "https://device.sso.example/", expiresAtMs: 0 },
    })),
    finishSsoSignIn: vi.fn(async () => ({ status: "ok" as const, data: null })),
    cancelSsoSignIn: vi.fn(async () => ({ status: "ok" as const, data: null })),
    resetDemoData: vi.fn(async () => ({ status: "ok" as const, data: { tables: 6, items: 17280 } })),
    ...overrides,
  };
}

afterEach(cleanup);

describe("ConnectionsSidebar", () => {
  it("lists each profile with its kind, region and read-only flag, and the AWS profiles found", async () => {
    renderWithCommands(<ConnectionsSidebar />, source());
    await waitFor(() => expect(screen.getByTestId("connection-p1")).toBeTruthy());
    expect(screen.getByTestId("connection-embedded").textContent).toContain("Embedded engine · local");
    expect(screen.getByTestId("connection-p1").textContent).toContain("AWS profile prod · eu-west-1 · read-only");
    expect(screen.getByTestId("aws-profile-prod").textContent).toContain("IAM Identity Center · eu-west-1");
  });

  it("tests a connection and shows what went wrong in plain words", async () => {
    const fake = source();
    renderWithCommands(<ConnectionsSidebar />, fake);
    await waitFor(() => expect(screen.getByTestId("connection-p1")).toBeTruthy());
    fireEvent.click(within(screen.getByTestId("connection-p1")).getByRole("button", { name: "Test connection" }));
    await waitFor(() => expect(screen.getByTestId("connection-result").textContent).toContain("aws sso login --profile prod"));
    expect(fake.testConnection).toHaveBeenCalledWith("p1");
  });

  it("says when no AWS profiles were found", async () => {
    renderWithCommands(<ConnectionsSidebar />, source({ listAwsProfiles: vi.fn(async () => ({ status: "ok" as const, data: [] })) }));
    await waitFor(() => expect(screen.getByTestId("no-aws-profiles")).toBeTruthy());
  });

  it("lists every page of the embedded engine's tables, filters them, and opens one", async () => {
    const onOpenTable = vi.fn();
    renderWithCommands(<ConnectionsSidebar onOpenTable={onOpenTable} />, source());
    await waitFor(() => expect(screen.getByTestId("open-table-Telemetry")).toBeTruthy());
    expect(screen.getByTestId("open-table-Orders")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Search tables"), { target: { value: "tele" } });
    expect(screen.queryByTestId("open-table-Orders")).toBeNull();
    fireEvent.click(screen.getByTestId("open-table-Telemetry"));
    expect(onOpenTable).toHaveBeenCalledWith(embedded, "Telemetry");
  });

  it("opens the first table found with Enter in the search box, and moves the highlight with ↑/↓", async () => {
    const onOpenTable = vi.fn();
    renderWithCommands(<ConnectionsSidebar onOpenTable={onOpenTable} />, source());
    await waitFor(() => expect(screen.getByTestId("open-table-Telemetry")).toBeTruthy());
    const search = screen.getByLabelText("Search tables") as HTMLInputElement;
    search.focus();
    fireEvent.change(search, { target: { value: "t" } });
    // Pets and Telemetry are found; Enter opens the first, without a Tab.
    const highlighted = () => document.getElementById(search.getAttribute("aria-activedescendant") ?? "")?.textContent;
    expect(highlighted()).toBe("Pets");
    fireEvent.keyDown(search, { key: "Enter" });
    expect(onOpenTable).toHaveBeenLastCalledWith(embedded, "Pets");
    fireEvent.keyDown(search, { key: "ArrowDown" });
    expect(highlighted()).toBe("Telemetry");
    expect(screen.getByTestId("open-table-Telemetry").getAttribute("aria-selected")).toBe("true");
    expect(screen.getByTestId("open-table-Pets").getAttribute("aria-selected")).toBe("false");
    // (At the end the highlight stays on the last.)
    fireEvent.keyDown(search, { key: "ArrowDown" });
    expect(highlighted()).toBe("Telemetry");
    fireEvent.keyDown(search, { key: "Enter" });
    expect(onOpenTable).toHaveBeenLastCalledWith(embedded, "Telemetry");
    fireEvent.keyDown(search, { key: "ArrowUp" });
    expect(highlighted()).toBe("Pets");
    // The focus stayed in the box all along, so typing goes on: a new search highlights its first.
    expect(document.activeElement).toBe(search);
    fireEvent.change(search, { target: { value: "tele" } });
    expect(highlighted()).toBe("Telemetry");
    // Escape clears the search, then leaves it for the highlighted table (not for the window's body).
    fireEvent.keyDown(search, { key: "Escape" });
    expect(search.value).toBe("");
    expect(document.activeElement).toBe(search);
    fireEvent.keyDown(search, { key: "Escape" });
    expect(document.activeElement).toBe(screen.getByTestId("open-table-Orders"));
    expect(onOpenTable).toHaveBeenCalledTimes(2);
  });

  it("is an ARIA combobox: the search box controls the listbox of tables, the highlighted option its active descendant", async () => {
    renderWithCommands(<ConnectionsSidebar />, source());
    await waitFor(() => expect(screen.getByTestId("open-table-Telemetry")).toBeTruthy());
    const search = screen.getByRole("combobox", { name: "Search tables" });
    const list = screen.getByRole("listbox", { name: "Tables" });
    expect(search.getAttribute("aria-controls")).toBe(list.id);
    expect(search.getAttribute("aria-autocomplete")).toBe("list");
    expect(search.getAttribute("aria-expanded")).toBe("true");
    const options = within(list).getAllByRole("option");
    expect(options.map((o) => o.textContent)).toEqual(["Orders", "Pets", "Telemetry"]);
    expect(search.getAttribute("aria-activedescendant")).toBe(options[0]!.id);
    expect(options.map((o) => o.getAttribute("aria-selected"))).toEqual(["true", "false", "false"]);
    fireEvent.keyDown(search, { key: "ArrowDown" });
    expect(search.getAttribute("aria-activedescendant")).toBe(options[1]!.id);
    expect(within(list).getByRole("option", { selected: true }).textContent).toBe("Pets");
    // Nothing found: the list is empty, and said to be collapsed.
    fireEvent.change(search, { target: { value: "zzz" } });
    expect(search.getAttribute("aria-expanded")).toBe("false");
    expect(search.getAttribute("aria-activedescendant")).toBeNull();
  });

  it("creates a custom-endpoint connection from the form, sending only that kind's fields", async () => {
    const fake = source();
    renderWithCommands(<ConnectionsSidebar />, fake);
    fireEvent.click(screen.getByRole("button", { name: "+ New connection" }));
    const form = screen.getByRole("form", { name: "New connection" });
    fireEvent.change(within(form).getByLabelText("Name"), { target: { value: "local" } });
    fireEvent.click(within(form).getByLabelText("A DynamoDB-compatible endpoint"));
    fireEvent.change(within(form).getByLabelText("Endpoint URL"), { target: { value: "http://127.0.0.1:8000" } });
    fireEvent.change(within(form).getByLabelText(/^Access key id/), { target: { value: "local" } });
    fireEvent.change(within(form).getByLabelText(/^Secret access key/), { target: { value: "s3cret" } });
    fireEvent.change(within(form).getByLabelText("Region"), { target: { value: "local" } });
    fireEvent.click(within(form).getByLabelText(/Read-only/));
    fireEvent.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.queryByRole("form")).toBeNull());
    expect(fake.createProfile).toHaveBeenCalledWith({
      name: "local",
      color: "#4f7cff",
      region: "local",
      readOnly: true,
      connection: { kind: "custom-endpoint", endpointUrl: "http://127.0.0.1:8000", accessKeyId: "local", secretAccessKey: "s3cret" },
    });
  });

  it("saves a local endpoint with no keys at all: nothing is required, and nothing is said to go to the keychain", async () => {
    const fake = source();
    renderWithCommands(<ConnectionsSidebar />, fake);
    fireEvent.click(screen.getByRole("button", { name: "+ New connection" }));
    const form = screen.getByRole("form", { name: "New connection" });
    fireEvent.change(within(form).getByLabelText("Name"), { target: { value: "dynamodb local" } });
    fireEvent.click(within(form).getByLabelText("A DynamoDB-compatible endpoint"));
    expect(within(form).getByTestId("endpoint-keys-hint").textContent).toContain("Leave both empty for a local endpoint");
    expect((within(form).getByLabelText(/^Access key id/) as HTMLInputElement).required).toBe(false);
    expect((within(form).getByLabelText(/^Secret access key/) as HTMLInputElement).required).toBe(false);
    expect(form.textContent).not.toContain("The secret goes to the system keychain");
    // An access key id typed alone asks for its secret.
    fireEvent.change(within(form).getByLabelText(/^Access key id/), { target: { value: "AKIA" } });
    expect((within(form).getByLabelText(/^Secret access key/) as HTMLInputElement).required).toBe(true);
    fireEvent.change(within(form).getByLabelText(/^Access key id/), { target: { value: "" } });
    fireEvent.change(within(form).getByLabelText("Region"), { target: { value: "local" } });
    fireEvent.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.queryByRole("form")).toBeNull());
    expect(fake.createProfile).toHaveBeenCalledWith(
      expect.objectContaining({
        connection: { kind: "custom-endpoint", endpointUrl: "http://127.0.0.1:8000", accessKeyId: "", secretAccessKey: "" },
      }),
    );
  });

  it("says when the AWS profile typed is not in the AWS files, and still lets it be saved", async () => {
    const fake = source();
    renderWithCommands(<ConnectionsSidebar />, fake);
    fireEvent.click(screen.getByRole("button", { name: "+ New connection" }));
    const form = screen.getByRole("form", { name: "New connection" });
    fireEvent.change(within(form).getByLabelText("Name"), { target: { value: "prod" } });
    fireEvent.change(within(form).getByLabelText("AWS profile"), { target: { value: "doesnotexist" } });
    const warning = within(form).getByTestId("aws-profile-unknown");
    expect(warning.textContent).toContain("There is no profile named doesnotexist in ~/.aws/config or ~/.aws/credentials");
    expect(within(form).getByLabelText("AWS profile").getAttribute("aria-describedby")).toBe(warning.id);
    fireEvent.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(fake.createProfile).toHaveBeenCalledTimes(1));
  });

  it("keeps the form open with the backend's sentence when saving fails", async () => {
    const fake = source({
      createProfile: vi.fn(async () => ({
        status: "error" as const,
        error: { code: "PROFILE_NAME_TAKEN" as const, message: "Another profile is called prod.", exception: null },
      })),
    });
    renderWithCommands(<ConnectionsSidebar />, fake);
    fireEvent.click(screen.getByRole("button", { name: "+ New connection" }));
    const form = screen.getByRole("form", { name: "New connection" });
    fireEvent.change(within(form).getByLabelText("Name"), { target: { value: "prod" } });
    fireEvent.change(within(form).getByLabelText("AWS profile"), { target: { value: "prod" } });
    fireEvent.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(within(form).getByRole("alert").textContent).toContain("Another profile is called prod."));
  });

  it("deletes a connection only after the confirmation that names it", async () => {
    const fake = source();
    renderWithCommands(<ConnectionsSidebar />, fake);
    await waitFor(() => expect(screen.getByTestId("connection-p1")).toBeTruthy());
    fireEvent.click(within(screen.getByTestId("connection-p1")).getByRole("button", { name: "Delete" }));
    expect(fake.deleteProfile).not.toHaveBeenCalled();
    const confirm = screen.getByRole("alertdialog", { name: "Delete prod?" });
    // A profile from ~/.aws has no secret in the keychain; deleting it leaves the AWS files alone.
    expect(confirm.textContent).toContain("Delete the connection “prod”? Its tables and your ~/.aws files are not touched.");
    expect(confirm.textContent).not.toContain("keychain");
    fireEvent.click(within(confirm).getByRole("button", { name: "Delete connection" }));
    await waitFor(() => expect(fake.deleteProfile).toHaveBeenCalledWith("p1"));
    // The embedded engine's connection cannot be edited or deleted.
    expect(within(screen.getByTestId("connection-embedded")).queryByRole("button", { name: "Delete" })).toBeNull();
  });

  it("opens a discovered AWS profile as a connection without retyping it", async () => {
    const fake = source({ listProfiles: vi.fn(async () => ({ status: "ok" as const, data: [embedded] })) });
    renderWithCommands(<ConnectionsSidebar />, fake);
    await waitFor(() => expect(screen.getByTestId("aws-profile-prod")).toBeTruthy());
    fireEvent.click(within(screen.getByTestId("aws-profile-prod")).getByRole("button", { name: "Open" }));
    await waitFor(() =>
      expect(fake.createProfile).toHaveBeenCalledWith({
        name: "prod",
        color: "#ff9900",
        region: "eu-west-1",
        readOnly: false,
        connection: { kind: "aws-profile", profileName: "prod" },
      }),
    );
  });

  it("asks for the MFA code a role needs, then lists its tables", async () => {
    let assumed = false;
    const fake = source({
      listTables: vi.fn(async (profileId: string) =>
        profileId === "p1" && !assumed
          ? { status: "error" as const, error: { code: "MFA_REQUIRED" as const, message: "enter the code your device arn:aws:iam::1:mfa/me shows.", exception: null } }
          : { status: "ok" as const, data: { names: ["prod-users"], nextStart: null } },
      ),
      provideMfaCode: vi.fn(async () => {
        assumed = true;
        return { status: "ok" as const, data: null };
      }),
    });
    renderWithCommands(<ConnectionsSidebar />, fake);
    await waitFor(() => expect(screen.getByTestId("connection-p1")).toBeTruthy());
    fireEvent.click(within(screen.getByTestId("connection-p1")).getByRole("button", { name: "prod" }));
    const prompt = await screen.findByRole("form", { name: "MFA code" });
    expect(prompt.textContent).toContain("arn:aws:iam::1:mfa/me");
    fireEvent.change(within(prompt).getByLabelText("MFA code"), { target: { value: "123456" } });
    fireEvent.click(within(prompt).getByRole("button", { name: "Assume role" }));
    await waitFor(() => expect(screen.getByTestId("open-table-prod-users")).toBeTruthy());
    expect(fake.provideMfaCode).toHaveBeenCalledWith("p1", "123456");
  });

  it("signs an SSO profile in: shows the code and the page to approve it on, then lists its tables", async () => {
    let signedIn = false;
    let approve: () => void = () => {};
    const fake = source({
      listTables: vi.fn(async (profileId: string) =>
        profileId === "p1" && !signedIn
          ? { status: "error" as const, error: { code: "SSO_SIGN_IN_REQUIRED" as const, message: "You are not signed in. Sign in to IAM Identity Center (https://corp.awsapps.com/start) to open the profile prod.", exception: null } }
          : { status: "ok" as const, data: { names: ["prod-users"], nextStart: null } },
      ),
      finishSsoSignIn: vi.fn(
        () =>
          new Promise<{ status: "ok"; data: null }>((resolve) => {
            approve = () => {
              signedIn = true;
              resolve({ status: "ok", data: null });
            };
          }),
      ),
    });
    renderWithCommands(<ConnectionsSidebar />, fake);
    await waitFor(() => expect(screen.getByTestId("connection-p1")).toBeTruthy());
    fireEvent.click(within(screen.getByTestId("connection-p1")).getByRole("button", { name: "prod" }));
    const signIn = await screen.findByRole("group", { name: "IAM Identity Center sign-in" });
    expect(signIn.textContent).toContain("https://corp.awsapps.com/start");
    fireEvent.click(within(signIn).getByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(screen.getByTestId("sso-user-code").textContent).toBe("ABCD-EFGH"));
    expect(screen.getByTestId("sso-verification-uri").textContent).toBe("https://device.sso.example/");
    expect(fake.startSsoSignIn).toHaveBeenCalledWith("p1");
    expect(fake.finishSsoSignIn).toHaveBeenCalledWith("p1");
    approve();
    await waitFor(() => expect(screen.getByTestId("open-table-prod-users")).toBeTruthy());
  });

  it("cancels an SSO sign-in that waits, and offers to sign in again", async () => {
    let cancel: () => void = () => {};
    const fake = source({
      listTables: vi.fn(async (profileId: string) =>
        profileId === "p1"
          ? { status: "error" as const, error: { code: "SSO_SIGN_IN_REQUIRED" as const, message: "The sign-in session has expired.", exception: null } }
          : { status: "ok" as const, data: { names: ["Orders"], nextStart: null } },
      ),
      finishSsoSignIn: vi.fn(
        () =>
          new Promise<{ status: "error"; error: { code: "CANCELLED"; message: string; exception: null } }>((resolve) => {
            cancel = () => resolve({ status: "error", error: { code: "CANCELLED", message: "The sign-in was cancelled.", exception: null } });
          }),
      ),
      cancelSsoSignIn: vi.fn(async () => {
        cancel();
        return { status: "ok" as const, data: null };
      }),
    });
    renderWithCommands(<ConnectionsSidebar />, fake);
    await waitFor(() => expect(screen.getByTestId("connection-p1")).toBeTruthy());
    fireEvent.click(within(screen.getByTestId("connection-p1")).getByRole("button", { name: "prod" }));
    const signIn = await screen.findByRole("group", { name: "IAM Identity Center sign-in" });
    fireEvent.click(within(signIn).getByRole("button", { name: "Sign in" }));
    fireEvent.click(await within(signIn).findByRole("button", { name: "Cancel" }));
    expect(fake.cancelSsoSignIn).toHaveBeenCalledWith("p1");
    await waitFor(() => expect(within(signIn).getByRole("button", { name: "Sign in" })).toBeTruthy());
    expect(within(signIn).queryByRole("alert")).toBeNull();
  });

  it("resets the demo data only after a confirmation, and says what it loaded", async () => {
    const fake = source();
    renderWithCommands(<ConnectionsSidebar />, fake);
    await waitFor(() => expect(screen.getByTestId("connection-embedded")).toBeTruthy());
    fireEvent.click(screen.getByRole("button", { name: "Reset demo data…" }));
    expect(fake.resetDemoData).not.toHaveBeenCalled();
    fireEvent.click(within(screen.getByRole("alertdialog", { name: "Reset the demo data?" })).getByRole("button", { name: "Reset demo data" }));
    await waitFor(() => expect(screen.getByTestId("demo-reset").textContent).toBe("The 6 demo tables were loaded again (17,280 items)."));
  });

  it("opens a connection's PartiQL tab from its PartiQL button", async () => {
    const onOpenPartiql = vi.fn();
    renderWithCommands(<ConnectionsSidebar onOpenPartiql={onOpenPartiql} />, source());
    await waitFor(() => expect(screen.getByTestId("connection-p1")).toBeTruthy());
    fireEvent.click(within(screen.getByTestId("connection-p1")).getByRole("button", { name: "PartiQL" }));
    expect(onOpenPartiql).toHaveBeenCalledWith(prod);
  });

  it("opens the connection form as a modal dialog: the focus in it, Tab kept inside, Escape closes it, the focus back on its opener", async () => {
    renderWithCommands(<ConnectionsSidebar />, source());
    await waitFor(() => expect(screen.getByTestId("connection-p1")).toBeTruthy());
    const opener = screen.getByRole("button", { name: "+ New connection" });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole("dialog", { name: "New connection" });
    // In it, on its first field.
    expect(document.activeElement).toBe(within(dialog).getByRole("textbox", { name: "Name" }));
    // Tab and Shift+Tab go round its controls.
    const stops = tabbables(dialog);
    expect(stops.length).toBeGreaterThan(2);
    stops.at(-1)!.focus();
    fireEvent.keyDown(document.activeElement!, { key: "Tab" });
    expect(document.activeElement).toBe(stops[0]);
    fireEvent.keyDown(document.activeElement!, { key: "Tab", shiftKey: true });
    expect(document.activeElement).toBe(stops.at(-1));
    // Escape closes it, and the focus is where it was.
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(opener);

    // The edit of a connection too, named after it, back on its Edit button.
    const edit = within(screen.getByTestId("connection-p1")).getByRole("button", { name: "Edit" });
    edit.focus();
    fireEvent.click(edit);
    const editing = screen.getByRole("dialog", { name: "Edit prod" });
    expect(editing.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(edit);
  });
});
