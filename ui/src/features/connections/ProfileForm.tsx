import { useState, type FormEvent } from "react";
import type { ConnectionInput, Profile, ProfileInput } from "../../ipc/bindings.gen";
import { errorTitle, type UiError } from "../../ipc/result";

type Kind = ConnectionInput["kind"];

/** The fields of the form, all as typed. */
type Fields = {
  name: string;
  color: string;
  region: string;
  readOnly: boolean;
  kind: Kind;
  profileName: string;
  endpointUrl: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
};

function initialFields(profile: Profile | null): Fields {
  const fields: Fields = {
    name: profile?.name ?? "",
    color: profile?.color ?? "#4f7cff",
    region: profile?.region ?? "us-east-1",
    readOnly: profile?.readOnly ?? false,
    kind: "aws-profile",
    profileName: "",
    endpointUrl: "http://127.0.0.1:8000",
    accessKeyId: "",
    secretAccessKey: "",
    sessionToken: "",
  };
  const connection = profile?.connection;
  if (connection?.kind === "aws-profile") return { ...fields, kind: connection.kind, profileName: connection.profileName };
  if (connection?.kind === "access-keys") return { ...fields, kind: connection.kind, accessKeyId: connection.accessKeyId };
  if (connection?.kind === "custom-endpoint") {
    return { ...fields, kind: connection.kind, endpointUrl: connection.endpointUrl, accessKeyId: connection.accessKeyId };
  }
  return fields;
}

/** The profile the backend is asked to save: only the fields of the chosen kind. */
export function profileInput(fields: Fields): ProfileInput {
  const connection: ConnectionInput =
    fields.kind === "aws-profile"
      ? { kind: "aws-profile", profileName: fields.profileName.trim() }
      : fields.kind === "access-keys"
        ? {
            kind: "access-keys",
            accessKeyId: fields.accessKeyId.trim(),
            secretAccessKey: fields.secretAccessKey,
            sessionToken: fields.sessionToken === "" ? null : fields.sessionToken,
          }
        : {
            kind: "custom-endpoint",
            endpointUrl: fields.endpointUrl.trim(),
            accessKeyId: fields.accessKeyId.trim(),
            secretAccessKey: fields.secretAccessKey,
          };
  return { name: fields.name.trim(), color: fields.color, region: fields.region, readOnly: fields.readOnly, connection };
}

/**
 * Creates or edits a connection profile. Secrets are typed here, sent once, kept in the OS
 * keychain by the backend and never shown again: editing a profile asks for them anew.
 */
export function ProfileForm({
  profile,
  regions,
  awsProfileNames,
  onSave,
  onCancel,
}: {
  profile: Profile | null;
  regions: string[];
  awsProfileNames: string[];
  onSave: (input: ProfileInput) => Promise<UiError | null>;
  onCancel: () => void;
}) {
  const [fields, setFields] = useState<Fields>(() => initialFields(profile));
  const [error, setError] = useState<UiError | null>(null);
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof Fields>(key: K, value: Fields[K]) => setFields((current) => ({ ...current, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    const failure = await onSave(profileInput(fields));
    setSaving(false);
    setError(failure);
  };

  const regionChoices = regions.includes(fields.region) ? regions : [fields.region, ...regions];
  const endpoint = fields.kind === "custom-endpoint";
  // A local endpoint that checks no signature needs no keys: both empty, nothing is kept.
  const keyless = endpoint && fields.accessKeyId.trim() === "" && fields.secretAccessKey === "";
  const keptSecret = profile?.connection.kind === "custom-endpoint" ? profile.connection.secretInKeychain : profile !== null;
  const profileName = fields.profileName.trim();
  const unknownProfile = fields.kind === "aws-profile" && profileName !== "" && profileName !== "default" && !awsProfileNames.includes(profileName);
  return (
    <form className="profile-form" aria-label={profile === null ? "New connection" : `Edit ${profile.name}`} onSubmit={(e) => void submit(e)}>
      <h2>{profile === null ? "New connection" : `Edit ${profile.name}`}</h2>
      <label>
        Name
        <input value={fields.name} onChange={(e) => set("name", e.target.value)} required maxLength={64} />
      </label>
      <label>
        Colour
        <input type="color" value={fields.color} onChange={(e) => set("color", e.target.value)} />
      </label>
      <fieldset>
        <legend>Connects to</legend>
        {(
          [
            ["aws-profile", "An AWS profile from ~/.aws"],
            ["access-keys", "AWS with access keys"],
            ["custom-endpoint", "A DynamoDB-compatible endpoint"],
          ] as const
        ).map(([kind, label]) => (
          <label key={kind} className="radio">
            <input type="radio" name="kind" checked={fields.kind === kind} onChange={() => set("kind", kind)} />
            {label}
          </label>
        ))}
      </fieldset>
      {fields.kind === "aws-profile" && (
        <label>
          AWS profile
          <input
            list="aws-profile-names"
            value={fields.profileName}
            onChange={(e) => set("profileName", e.target.value)}
            required
            aria-describedby={unknownProfile ? "aws-profile-unknown" : undefined}
          />
          <datalist id="aws-profile-names">
            {awsProfileNames.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
        </label>
      )}
      {unknownProfile && (
        <p className="status-warning" id="aws-profile-unknown" data-testid="aws-profile-unknown">
          There is no profile named {profileName} in ~/.aws/config or ~/.aws/credentials yet: the connection will not open until
          there is.
        </p>
      )}
      {fields.kind === "custom-endpoint" && (
        <label>
          Endpoint URL
          <input type="url" value={fields.endpointUrl} onChange={(e) => set("endpointUrl", e.target.value)} required />
        </label>
      )}
      {fields.kind !== "aws-profile" && (
        <>
          <label>
            Access key id{endpoint && " (optional)"}
            <input value={fields.accessKeyId} onChange={(e) => set("accessKeyId", e.target.value)} required={!endpoint} autoComplete="off" />
          </label>
          <label>
            Secret access key{endpoint && " (optional)"}
            <input
              type="password"
              value={fields.secretAccessKey}
              onChange={(e) => set("secretAccessKey", e.target.value)}
              required={!endpoint || fields.accessKeyId.trim() !== ""}
              autoComplete="off"
              placeholder={profile !== null && keptSecret ? "Type it again to save" : ""}
            />
          </label>
          {endpoint && (
            <p className="muted" data-testid="endpoint-keys-hint">
              Leave both empty for a local endpoint that checks no signature (DynamoDB Local, LocalStack, dynotable-local): its
              requests are signed with placeholder keys and nothing goes to the keychain.
            </p>
          )}
        </>
      )}
      {fields.kind === "access-keys" && (
        <label>
          Session token (optional)
          <input type="password" value={fields.sessionToken} onChange={(e) => set("sessionToken", e.target.value)} autoComplete="off" />
        </label>
      )}
      <label>
        Region
        {fields.kind === "custom-endpoint" ? (
          // A local endpoint accepts any region name; it only signs requests with it.
          <input list="region-names" value={fields.region} onChange={(e) => set("region", e.target.value)} required />
        ) : (
          <select value={fields.region} onChange={(e) => set("region", e.target.value)}>
            {regionChoices.map((region) => (
              <option key={region} value={region}>
                {region}
              </option>
            ))}
          </select>
        )}
        <datalist id="region-names">
          {regions.map((region) => (
            <option key={region} value={region} />
          ))}
        </datalist>
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={fields.readOnly} onChange={(e) => set("readOnly", e.target.checked)} />
        Read-only: refuse every write on this connection
      </label>
      {fields.kind !== "aws-profile" && !keyless && <p className="muted">The secret goes to the system keychain and is never shown again.</p>}
      {error !== null && (
        <p className="status-error" role="alert">
          {errorTitle(error.code)}: {error.message}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" disabled={saving}>
          {saving ? "Saving…" : "Save"}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
