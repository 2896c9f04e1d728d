-- Collection statistics of tables on AWS (or any endpoint), gathered by a scan the user started:
-- kept so the scan is not paid for twice. `stats` is the CollectionStats DTO as JSON.
CREATE TABLE collection_statistics (
    profile_id  TEXT NOT NULL,
    table_name  TEXT NOT NULL,
    stats       TEXT NOT NULL,
    gathered_at REAL NOT NULL,
    PRIMARY KEY (profile_id, table_name)
) STRICT;
