-- The first rows of each collection a statistics scan read (AWS, any endpoint), in sort-key order,
-- so the Collections view draws a box from what the scan already paid for instead of a Query.
-- `partition_value` is the collection's partition-key value as DynamoDB JSON; `items` how many of
-- its items the scan counted; `rows` at most the first rows of them (a JSON array of items);
-- `open` is 1 for the collection a stopped scan was reading when it stopped (its rows may be
-- short of its first ones); `read_at` when they were read (seconds since the epoch).
-- `index_name` is '' for the table itself.
CREATE TABLE gathered_rows (
    profile_id      TEXT NOT NULL,
    table_name      TEXT NOT NULL,
    index_name      TEXT NOT NULL,
    partition_value TEXT NOT NULL,
    items           REAL NOT NULL,
    rows            TEXT NOT NULL,
    open            INTEGER NOT NULL,
    read_at         REAL NOT NULL,
    PRIMARY KEY (profile_id, table_name, index_name, partition_value)
) STRICT;
