-- Whether a custom endpoint's profile keeps a secret access key in the OS keychain. A local
-- endpoint that checks no signature (DynamoDB Local, LocalStack, dynotable-local without --auth)
-- needs none: its requests are signed with placeholder keys and the keychain is never asked, so
-- it works on a machine without one. Rows from before this column kept a secret.
ALTER TABLE profiles ADD COLUMN secret_in_keychain INTEGER NOT NULL DEFAULT 1;
