-- DynamoDB Streams: one row per change record, written in the same transaction as the change,
-- so no change is ever missing from its stream. `seq` orders every record of every stream; the
-- API's SequenceNumber is `seq` zero-padded to 21 digits.
CREATE TABLE stream_records (
    seq              INTEGER PRIMARY KEY AUTOINCREMENT,
    stream_id        INTEGER NOT NULL,
    event_name       TEXT NOT NULL,
    created_at       REAL NOT NULL,
    -- The record's `dynamodb` member without SequenceNumber (Keys, images, SizeBytes, view type).
    record           TEXT NOT NULL,
    -- 1 when Time to Live deleted the item (userIdentity: the DynamoDB service).
    service_removal  INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX stream_records_by_stream ON stream_records (stream_id, seq);
CREATE INDEX stream_records_by_time ON stream_records (created_at);

-- Time to Live: the expiry of every item whose TTL attribute is a number, on tables with TTL
-- enabled, kept in each write's transaction so the sweeper finds expired items without a scan.
CREATE TABLE expiries (
    keyspace    INTEGER NOT NULL,
    pk          BLOB NOT NULL,
    sk          BLOB NOT NULL,
    expires_at  REAL NOT NULL,
    PRIMARY KEY (keyspace, pk, sk)
) STRICT, WITHOUT ROWID;
CREATE INDEX expiries_by_time ON expiries (keyspace, expires_at);
