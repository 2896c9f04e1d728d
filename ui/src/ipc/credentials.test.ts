import { afterEach, describe, expect, it, vi } from "vitest";
import { credentialsRenewed, guarded, onCredentialsNeeded, onCredentialsRenewed, type CredentialsNeeded } from "./credentials";

const stops: (() => void)[] = [];
afterEach(() => stops.splice(0).forEach((stop) => stop()));

const mfa = { status: "error" as const, error: { code: "MFA_REQUIRED" as const, message: "enter the code", exception: null } };

describe("guarded commands", () => {
  it("announce an answer that needs the user, with the connection it came from, and return it unchanged", async () => {
    const heard: CredentialsNeeded[] = [];
    stops.push(onCredentialsNeeded((n) => heard.push(n)));
    const calls = guarded({ describeTable: vi.fn(async (_profile: string, _table: string) => mfa) });
    expect(await calls.describeTable("prod", "Orders")).toBe(mfa);
    expect(heard).toEqual([{ profileId: "prod", code: "MFA_REQUIRED", message: "enter the code" }]);
  });

  it("announce nothing for other answers, or for a call that names no connection", async () => {
    const heard: CredentialsNeeded[] = [];
    stops.push(onCredentialsNeeded((n) => heard.push(n)));
    const denied = { status: "error" as const, error: { code: "ACCESS_DENIED" as const, message: "no", exception: null } };
    const calls = guarded({
      ok: async (_profile: string) => ({ status: "ok" as const, data: 1 }),
      denied: async (_profile: string) => denied,
      unnamed: async (_n: number) => mfa,
    });
    await calls.ok("prod");
    await calls.denied("prod");
    await calls.unnamed(3);
    expect(heard).toEqual([]);
  });

  it("tell the listeners of a renewal which connection works again", () => {
    const renewed: string[] = [];
    stops.push(onCredentialsRenewed((id) => renewed.push(id)));
    credentialsRenewed("prod");
    expect(renewed).toEqual(["prod"]);
  });
});
