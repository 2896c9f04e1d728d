-- Query history and saved queries, per connection (profile id; "embedded" for the built-in engine,
-- which has no row in `profiles`). `request` is the QueryInput as JSON.
CREATE TABLE query_history (
    id          INTEGER PRIMARY KEY,
    profile_id  TEXT NOT NULL,
    table_name  TEXT NOT NULL,
    request     TEXT NOT NULL,
    ran_at      REAL NOT NULL,
    -- What the first page returned and cost.
    item_count  INTEGER NOT NULL,
    capacity    REAL NOT NULL
) STRICT;
CREATE INDEX query_history_by_profile ON query_history (profile_id, ran_at DESC);

CREATE TABLE saved_queries (
    id          TEXT PRIMARY KEY NOT NULL,
    profile_id  TEXT NOT NULL,
    table_name  TEXT NOT NULL,
    name        TEXT NOT NULL,
    request     TEXT NOT NULL,
    saved_at    REAL NOT NULL,
    UNIQUE (profile_id, table_name, name)
) STRICT;
