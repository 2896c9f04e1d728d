-- The PartiQL editor's saved statements, per connection: the text, one typed value per `?` and
-- how it runs (a statement, a batch, a transaction), as JSON (`content`, a
-- SavedStatementContent). A statement may name several tables, so the row's table_name is ''
-- (the connection's). Names are unique per connection.
CREATE TABLE saved_statements (
    id          TEXT PRIMARY KEY NOT NULL,
    profile_id  TEXT NOT NULL,
    table_name  TEXT NOT NULL,
    name        TEXT NOT NULL,
    content     TEXT NOT NULL,
    saved_at    REAL NOT NULL,
    UNIQUE (profile_id, table_name, name)
) STRICT;
