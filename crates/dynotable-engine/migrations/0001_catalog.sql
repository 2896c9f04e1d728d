-- The catalog: one row per table, its definition as DynamoDB describes it (JSON), and the
-- time it was created. Items, index entries and collection statistics arrive in later migrations.
CREATE TABLE catalog_tables (
    name        TEXT PRIMARY KEY NOT NULL,
    definition  TEXT NOT NULL,
    created_at  INTEGER NOT NULL
) STRICT;
