-- Connection profiles: one row per connection the user keeps. Secrets are never stored here:
-- access keys live in the OS keychain (see secrets.rs), referenced by the profile's id.
CREATE TABLE profiles (
    id          TEXT PRIMARY KEY NOT NULL,
    name        TEXT NOT NULL UNIQUE,
    color       TEXT NOT NULL,
    region      TEXT NOT NULL,
    read_only   INTEGER NOT NULL DEFAULT 0,
    -- embedded | aws-profile | access-keys | custom-endpoint
    kind        TEXT NOT NULL,
    -- The AWS named profile (aws-profile), the access key id (access-keys, custom-endpoint),
    -- and the endpoint URL (custom-endpoint).
    aws_profile    TEXT,
    access_key_id  TEXT,
    endpoint_url   TEXT,
    created_at  REAL NOT NULL
) STRICT;
