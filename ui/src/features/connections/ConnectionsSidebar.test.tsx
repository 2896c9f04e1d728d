import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { ConnectionsSidebar, type ConnectionsSource } from "./ConnectionsSidebar";
import type { Profile } from "../../ipc/bindings.gen";

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

function source(overrides: Partial<ConnectionsSource> = {}): ConnectionsSource {
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
    ...overrides,
  };
}

afterEach(cleanup);

describe("ConnectionsSidebar", () => {
  it("lists each profile with its kind, region and read-only flag, and the AWS profiles found", async () => {
    render(<ConnectionsSidebar source={source()} />);
    await waitFor(() => expect(screen.getByTestId("connection-p1")).toBeTruthy());
    expect(screen.getByTestId("connection-embedded").textContent).toContain("Embedded engine · local");
    expect(screen.getByTestId("connection-p1").textContent).toContain("AWS profile prod · eu-west-1 · read-only");
    expect(screen.getByTestId("aws-profile-prod").textContent).toContain("IAM Identity Center · eu-west-1");
  });

  it("tests a connection and shows what went wrong in plain words", async () => {
    const fake = source();
    render(<ConnectionsSidebar source={fake} />);
    await waitFor(() => expect(screen.getByTestId("connection-p1")).toBeTruthy());
    const button = screen.getByTestId("connection-p1").querySelector("button");
    fireEvent.click(button!);
    await waitFor(() => expect(screen.getByTestId("connection-result").textContent).toContain("aws sso login --profile prod"));
    expect(fake.testConnection).toHaveBeenCalledWith("p1");
  });

  it("says when no AWS profiles were found", async () => {
    render(<ConnectionsSidebar source={source({ listAwsProfiles: vi.fn(async () => ({ status: "ok" as const, data: [] })) })} />);
    await waitFor(() => expect(screen.getByTestId("no-aws-profiles")).toBeTruthy());
  });
});
