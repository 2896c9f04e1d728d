import { useEffect, useState } from "react";
import { commands, type AwsProfile, type ConnectionTest, type Profile } from "../../ipc/bindings.gen";
import { errorTitle, unwrap, type Loadable, type UiError } from "../../ipc/result";

/** The calls the sidebar makes; the app passes the generated commands, tests pass fakes. */
export type ConnectionsSource = {
  listProfiles: typeof commands.listProfiles;
  listAwsProfiles: typeof commands.listAwsProfiles;
  testConnection: typeof commands.testConnection;
};

/** What a profile's connection is, in a word or two. */
export function connectionLabel(profile: Profile): string {
  switch (profile.connection.kind) {
    case "embedded":
      return "Embedded engine";
    case "aws-profile":
      return `AWS profile ${profile.connection.profileName}`;
    case "access-keys":
      return "Access keys";
    case "custom-endpoint":
      return profile.connection.endpointUrl;
  }
}

function credentialLabel(profile: AwsProfile): string {
  switch (profile.credentials.kind) {
    case "static-keys":
      return profile.credentials.withSessionToken ? "keys + session token" : "access keys";
    case "sso":
      return "IAM Identity Center";
    case "assume-role":
      return profile.credentials.mfa ? "assume role (MFA)" : "assume role";
    case "process":
      return "credential process";
    case "web-identity":
      return "web identity";
    case "other":
      return "environment";
  }
}

/** The connections the user has, and the AWS profiles found in their config files. */
export function ConnectionsSidebar({ source = commands }: { source?: ConnectionsSource }) {
  const [profiles, setProfiles] = useState<Loadable<Profile[], UiError>>({ status: "loading" });
  const [awsProfiles, setAwsProfiles] = useState<Loadable<AwsProfile[], UiError>>({ status: "loading" });
  const [tests, setTests] = useState<Record<string, Loadable<ConnectionTest, UiError>>>({});

  useEffect(() => {
    let cancelled = false;
    void unwrap(source.listProfiles()).then((next) => !cancelled && setProfiles(next));
    void unwrap(source.listAwsProfiles()).then((next) => !cancelled && setAwsProfiles(next));
    return () => {
      cancelled = true;
    };
  }, [source]);

  const test = async (id: string) => {
    setTests((current) => ({ ...current, [id]: { status: "loading" } }));
    const result = await unwrap(source.testConnection(id));
    setTests((current) => ({ ...current, [id]: result }));
  };

  return (
    <nav className="sidebar" aria-label="Connections">
      <h2 className="sidebar-heading">Connections</h2>
      {profiles.status === "loading" && <p className="muted">Loading…</p>}
      {profiles.status === "error" && <p className="status-error">{errorTitle(profiles.error.code)}</p>}
      {profiles.status === "ok" && (
        <ul className="connection-list">
          {profiles.data.map((profile) => (
            <li key={profile.id} className="connection" data-testid={`connection-${profile.id}`}>
              <span className="connection-color" style={{ backgroundColor: profile.color }} aria-hidden="true" />
              <span className="connection-name">{profile.name}</span>
              <span className="connection-kind muted">
                {connectionLabel(profile)} · {profile.region}
                {profile.readOnly && " · read-only"}
              </span>
              <button type="button" className="connection-test" onClick={() => void test(profile.id)}>
                Test connection
              </button>
              <TestResult result={tests[profile.id]} />
            </li>
          ))}
        </ul>
      )}
      <h2 className="sidebar-heading">AWS profiles</h2>
      {awsProfiles.status === "error" && <p className="status-error">{awsProfiles.error.message}</p>}
      {awsProfiles.status === "ok" && awsProfiles.data.length === 0 && (
        <p className="muted" data-testid="no-aws-profiles">
          No profiles in ~/.aws/config or ~/.aws/credentials.
        </p>
      )}
      {awsProfiles.status === "ok" && awsProfiles.data.length > 0 && (
        <ul className="connection-list">
          {awsProfiles.data.map((profile) => (
            <li key={profile.name} className="connection" data-testid={`aws-profile-${profile.name}`}>
              <span className="connection-name">{profile.name}</span>
              <span className="connection-kind muted">
                {credentialLabel(profile)}
                {profile.region !== null && ` · ${profile.region}`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}

function TestResult({ result }: { result: Loadable<ConnectionTest, UiError> | undefined }) {
  if (result === undefined) return null;
  if (result.status === "loading") return <span className="connection-result muted">Testing…</span>;
  if (result.status === "error") {
    return <span className="connection-result status-error">{errorTitle(result.error.code)}: {result.error.message}</span>;
  }
  return (
    <span className={`connection-result ${result.data.ok ? "test-ok" : "status-error"}`} data-testid="connection-result">
      {result.data.message}
    </span>
  );
}
