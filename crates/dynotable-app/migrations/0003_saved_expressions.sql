-- The expression and query builder's saved work, per connection and table: one expression (a key
-- condition, filter, condition, update or projection) or a whole Query/Scan request, as the
-- builder state in JSON (`content`, a SavedBuilderContent). Names are unique per table.
CREATE TABLE saved_expressions (
    id          TEXT PRIMARY KEY NOT NULL,
    profile_id  TEXT NOT NULL,
    table_name  TEXT NOT NULL,
    name        TEXT NOT NULL,
    content     TEXT NOT NULL,
    saved_at    REAL NOT NULL,
    UNIQUE (profile_id, table_name, name)
) STRICT;
