-- The catalog: one row per table, its validated definition (JSON of catalog::TableSchema).
CREATE TABLE catalog_tables (
    name        TEXT PRIMARY KEY NOT NULL,
    definition  TEXT NOT NULL,
    created_at  REAL NOT NULL
) STRICT;

-- A keyspace is where one table's items, or one index's entries, are stored. Its running
-- totals (item count and bytes by DynamoDB's size rules) are kept in the writing transaction.
CREATE TABLE keyspaces (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    table_name  TEXT NOT NULL,
    index_name  TEXT,
    item_count  INTEGER NOT NULL DEFAULT 0,
    size_bytes  INTEGER NOT NULL DEFAULT 0
) STRICT;

-- Every item and every index entry. `pk` and `sk` are the order-preserving encodings of the
-- partition and sort key (sk is empty when the key has no sort key), so a collection is one
-- contiguous, sorted range of the primary key. For an index entry `tail` is the encoded primary
-- key of the base item (index keys need not be unique); for a base item it is empty.
CREATE TABLE entries (
    keyspace    INTEGER NOT NULL,
    pk          BLOB NOT NULL,
    sk          BLOB NOT NULL,
    tail        BLOB NOT NULL,
    body        BLOB NOT NULL,
    size        INTEGER NOT NULL,
    PRIMARY KEY (keyspace, pk, sk, tail)
) STRICT, WITHOUT ROWID;

-- Item collections: count and bytes per partition-key value, for the table and each index.
CREATE TABLE collections (
    keyspace    INTEGER NOT NULL,
    pk          BLOB NOT NULL,
    item_count  INTEGER NOT NULL,
    size_bytes  INTEGER NOT NULL,
    PRIMARY KEY (keyspace, pk)
) STRICT, WITHOUT ROWID;
CREATE INDEX collections_by_size ON collections (keyspace, size_bytes DESC);
