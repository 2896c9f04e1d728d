import { useId, useLayoutEffect, useRef, useState } from "react";
import type { AwsProfile, ConnectionTest, Profile, ProfileInput } from "../../ipc/bindings.gen";
import { useUnguardedCommands } from "../../ipc/CommandsContext";
import { errorTitle, unwrap, type Loadable, type UiError } from "../../ipc/result";
import { ProfileForm } from "./ProfileForm";
import { TableList } from "./TableList";
import { formatCountOf } from "../../shared/format";
import { useModalDialog } from "../../shared/useModalDialog";
import { comboKeys, SHORTCUTS } from "../../app/shortcuts";
import { ShareEngine } from "./ShareEngine";
import { useConnections } from "./useConnections";
import "./connections.css";

/** The form being shown: a new profile, or the edit of one. */
type Editing = { profile: Profile | null } | null;

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
      return profile.connection.secretInKeychain ? profile.connection.endpointUrl : `${profile.connection.endpointUrl} · any keys`;
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

/** Ctrl+B (Cmd+B on macOS): collapse the sidebar, or show it whole. */
const toggleCombo = SHORTCUTS.find((s) => s.id === "toggle-sidebar")!.combos[0]!;

/**
 * The connections the user has, their tables, and the AWS profiles found in their config files.
 * Collapsed (`collapsed`, changed with `onToggleCollapsed`), it is a narrow rail with the one
 * button that shows it whole again; what it holds stays as it was (hidden, not dropped).
 */
export function ConnectionsSidebar({
  onOpenTable = () => {},
  onNewTable,
  tablesChanged = 0,
  onOpenPartiql,
  collapsed = false,
  onToggleCollapsed,
}: {
  onOpenTable?: (profile: Profile, table: string) => void;
  /** Opens the create-table screen for a connection. */
  onNewTable?: (profile: Profile) => void;
  /** Bumped when a table was created or deleted elsewhere: the lists are read again. */
  tablesChanged?: number;
  /** Opens the connection's PartiQL tab (no button when not given). */
  onOpenPartiql?: (profile: Profile) => void;
  /** Shown as a narrow rail (no toggle button when `onToggleCollapsed` is not given). */
  collapsed?: boolean;
  onToggleCollapsed?: () => void;
}) {
  // The generated commands, not guarded: the sidebar asks for an MFA code in place.
  const source = useUnguardedCommands();
  const { profiles, awsProfiles, regions, reload } = useConnections();
  const [tests, setTests] = useState<Record<string, Loadable<ConnectionTest, UiError>>>({});
  const [expanded, setExpanded] = useState<Record<string, boolean>>({ embedded: true });
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Profile | null>(null);
  const [problem, setProblem] = useState<UiError | null>(null);
  const [resetting, setResetting] = useState<"asking" | "running" | string | null>(null);
  const [tablesVersion, setTablesVersion] = useState(0);
  // The connection form is a modal dialog: the focus in it while open, back on its opener after.
  const dialog = useModalDialog<HTMLDivElement>(editing !== null, { onEscape: () => setEditing(null) });
  const contentId = `${useId()}-content`;
  const contentRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  // Collapsed (by Ctrl+B) with the focus on something it hides: the focus goes to the rail's button,
  // not to the window's body.
  useLayoutEffect(() => {
    if (collapsed && contentRef.current?.contains(document.activeElement)) toggleRef.current?.focus();
  }, [collapsed]);

  const resetDemo = async () => {
    setResetting("running");
    const result = await unwrap(source.resetDemoData());
    if (result.status === "ok") {
      setResetting(`The ${result.data.tables} demo tables were loaded again (${formatCountOf(result.data.items, "item")}).`);
      setTablesVersion((n) => n + 1);
    } else {
      setResetting(null);
      if (result.status === "error") setProblem(result.error);
    }
  };

  const test = async (id: string) => {
    setTests((current) => ({ ...current, [id]: { status: "loading" } }));
    const result = await unwrap(source.testConnection(id));
    setTests((current) => ({ ...current, [id]: result }));
  };

  const save = async (input: ProfileInput): Promise<UiError | null> => {
    const target = editing?.profile ?? null;
    const result = await unwrap(target === null ? source.createProfile(input) : source.updateProfile(target.id, input));
    if (result.status === "error") return result.error;
    if (result.status !== "ok") return null;
    setEditing(null);
    await reload();
    setExpanded((current) => ({ ...current, [result.data.id]: true }));
    return null;
  };

  const remove = async (profile: Profile) => {
    const result = await unwrap(source.deleteProfile(profile.id));
    setDeleting(null);
    setProblem(result.status === "error" ? result.error : null);
    await reload();
  };

  /** Opens a discovered AWS profile: reuses the connection made for it, or makes one. */
  const openAwsProfile = async (aws: AwsProfile) => {
    const known = profiles.status === "ok" ? profiles.data : [];
    const existing = known.find((p) => p.connection.kind === "aws-profile" && p.connection.profileName === aws.name);
    if (existing !== undefined) {
      setExpanded((current) => ({ ...current, [existing.id]: true }));
      return;
    }
    const region = aws.region !== null && regions.includes(aws.region) ? aws.region : "us-east-1";
    const result = await unwrap(
      source.createProfile({
        name: known.some((p) => p.name === aws.name) ? `${aws.name} (AWS)` : aws.name,
        color: "#ff9900",
        region,
        readOnly: false,
        connection: { kind: "aws-profile", profileName: aws.name },
      }),
    );
    if (result.status !== "ok") {
      setProblem(result.status === "error" ? result.error : null);
      return;
    }
    setProblem(null);
    await reload();
    setExpanded((current) => ({ ...current, [result.data.id]: true }));
  };

  return (
    <nav className={`sidebar${collapsed ? " sidebar-collapsed" : ""}`} aria-label="Connections">
      <div className="sidebar-title">
        {onToggleCollapsed && (
          <button
            ref={toggleRef}
            type="button"
            className="sidebar-toggle"
            data-testid="sidebar-toggle"
            aria-label={collapsed ? "Show sidebar" : "Hide sidebar"}
            aria-expanded={!collapsed}
            aria-controls={contentId}
            aria-keyshortcuts="Control+B Meta+B"
            title={`${collapsed ? "Show the sidebar: connections and their tables" : "Collapse the sidebar to a narrow rail"} (${comboKeys(toggleCombo).join("+")})`}
            onClick={onToggleCollapsed}
          >
            <span aria-hidden="true">{collapsed ? "»" : "«"}</span>
          </button>
        )}
        {!collapsed && (
          <>
            <h2 className="sidebar-heading">Connections</h2>
            <button type="button" className="link-button" onClick={() => setEditing({ profile: null })}>
              + New connection
            </button>
          </>
        )}
      </div>
      {editing !== null && (
        <div className="dialog-backdrop">
          <div
            ref={dialog.ref}
            tabIndex={-1}
            role="dialog"
            aria-modal="true"
            aria-label={editing.profile === null ? "New connection" : `Edit ${editing.profile.name}`}
            className="dialog"
            onKeyDown={dialog.onKeyDown}
          >
            <ProfileForm
              profile={editing.profile}
              regions={regions}
              awsProfileNames={awsProfiles.status === "ok" ? awsProfiles.data.map((p) => p.name) : []}
              onSave={save}
              onCancel={() => setEditing(null)}
            />
          </div>
        </div>
      )}
      <div ref={contentRef} id={contentId} className="sidebar-content" hidden={collapsed}>
        {problem !== null && (
          <p className="status-error" role="alert">
            {errorTitle(problem.code)}: {problem.message}
          </p>
        )}
        {profiles.status === "loading" && <p className="muted">Loading…</p>}
        {profiles.status === "error" && <p className="status-error">{errorTitle(profiles.error.code)}</p>}
        {profiles.status === "ok" && (
          <ul className="connection-list">
            {profiles.data.map((profile) => (
              <li key={profile.id} className="connection" data-testid={`connection-${profile.id}`}>
                <span className="connection-color" style={{ backgroundColor: profile.color }} aria-hidden="true" />
                <button
                  type="button"
                  className="connection-name"
                  aria-expanded={expanded[profile.id] === true}
                  onClick={() => setExpanded((current) => ({ ...current, [profile.id]: !current[profile.id] }))}
                >
                  {profile.name}
                </button>
                <span className="connection-kind muted">
                  {connectionLabel(profile)} · {profile.region}
                  {profile.readOnly && " · read-only"}
                </span>
                <span className="connection-actions">
                  <button type="button" className="connection-test" onClick={() => void test(profile.id)}>
                    Test connection
                  </button>
                  {onOpenPartiql && (
                    <button type="button" onClick={() => onOpenPartiql(profile)} data-testid={`partiql-${profile.id}`}>
                      PartiQL
                    </button>
                  )}
                  {profile.connection.kind !== "embedded" && (
                    <>
                      <button type="button" onClick={() => setEditing({ profile })}>
                        Edit
                      </button>
                      <button type="button" onClick={() => setDeleting(profile)}>
                        Delete
                      </button>
                    </>
                  )}
                </span>
                {deleting?.id === profile.id && (
                  <span className="confirm" role="alertdialog" aria-label={`Delete ${profile.name}?`}>
                    {profile.connection.kind === "aws-profile"
                      ? `Delete the connection “${profile.name}”? Its tables and your ~/.aws files are not touched.`
                      : `Delete the connection “${profile.name}” and its keychain secrets? Its tables are not touched.`}
                    <button type="button" onClick={() => void remove(profile)}>
                      Delete connection
                    </button>
                    <button type="button" onClick={() => setDeleting(null)}>
                      Keep
                    </button>
                  </span>
                )}
                <TestResult result={tests[profile.id]} />
                {profile.connection.kind === "embedded" && <ShareEngine />}
                {profile.connection.kind === "embedded" && (
                  <span className="connection-actions">
                    {resetting === "asking" ? (
                      <span className="confirm" role="alertdialog" aria-label="Reset the demo data?">
                        Delete the demo tables (with your changes to them) and load them again? Your own tables are kept.
                        <button type="button" onClick={() => void resetDemo()}>
                          Reset demo data
                        </button>
                        <button type="button" onClick={() => setResetting(null)}>
                          Keep
                        </button>
                      </span>
                    ) : (
                      <button type="button" disabled={resetting === "running"} onClick={() => setResetting("asking")}>
                        {resetting === "running" ? "Loading the demo tables…" : "Reset demo data…"}
                      </button>
                    )}
                    {resetting !== null && resetting !== "asking" && resetting !== "running" && (
                      <span className="test-ok" data-testid="demo-reset">
                        {resetting}
                      </span>
                    )}
                  </span>
                )}
                {expanded[profile.id] === true && (
                  <TableList
                    key={`${profile.id}-${tablesVersion}-${tablesChanged}`}
                    profileId={profile.id}
                    onOpen={(table) => onOpenTable(profile, table)}
                    onNewTable={onNewTable === undefined ? undefined : () => onNewTable(profile)}
                  />
                )}
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
                <span className="connection-actions">
                  <button type="button" onClick={() => void openAwsProfile(profile)}>
                    Open
                  </button>
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
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
