-- Collection statistics per table and per index, and partial scans: a statistics scan stopped by
-- the user's budget or Cancel keeps what it read, with the key to continue it from
-- (`resume_key`, the Scan's LastEvaluatedKey as DynamoDB JSON; NULL once the scan read to the end).
-- `index_name` is '' for the table itself.
CREATE TABLE gathered_statistics (
    profile_id  TEXT NOT NULL,
    table_name  TEXT NOT NULL,
    index_name  TEXT NOT NULL,
    stats       TEXT NOT NULL,
    resume_key  TEXT,
    gathered_at REAL NOT NULL,
    PRIMARY KEY (profile_id, table_name, index_name)
) STRICT;

INSERT INTO gathered_statistics (profile_id, table_name, index_name, stats, resume_key, gathered_at)
SELECT profile_id, table_name, '', stats, NULL, gathered_at FROM collection_statistics;

DROP TABLE collection_statistics;
