#!/usr/bin/env python3
"""Inserts into an in-memory SQLite database get slower as it grows, commit by commit.

bench/README.md, "In-memory databases: each COMMIT walks the whole database": 400,000 rows of
~400 bytes with random 16-byte keys into a WITHOUT ROWID table, 25 rows per transaction (one
BatchWriteItem) or 400 (a group commit), printing the rate for each 100,000 rows — in an
in-memory database (`mode=memory`, the kind dynotable-local's `--in-memory` uses) and, for
comparison, in a file (WAL, synchronous=NORMAL, an 8 MiB cache: dynotable-local's writer).
Python's `sqlite3`, no server. Run it under `flock /tmp/bench.lock` on a shared machine.
"""

import os
import sqlite3
import tempfile
import time

ROWS = 400_000
STEP = 100_000


def run(label, uri, pragmas, per_tx):
    db = sqlite3.connect(uri, uri=True, isolation_level=None)
    for pragma in pragmas:
        db.execute(pragma)
    db.execute("CREATE TABLE entries (k BLOB PRIMARY KEY, v BLOB) WITHOUT ROWID")
    body = os.urandom(400)
    rows = [(os.urandom(16), body) for _ in range(ROWS)]
    rates = []
    last = time.perf_counter()
    for start in range(0, ROWS, per_tx):
        db.execute("BEGIN")
        db.executemany("INSERT INTO entries VALUES (?, ?)", rows[start:start + per_tx])
        db.execute("COMMIT")
        if (start + per_tx) % STEP == 0:
            now = time.perf_counter()
            rates.append(f"{STEP / (now - last):,.0f}")
            last = now
    db.close()
    print(f"| {label} | {per_tx} | {' / '.join(rates)} |", flush=True)


def main():
    print(f"| database | rows per commit | rows/s for each {STEP:,} rows |")
    print("|---|---:|---|")
    with tempfile.TemporaryDirectory(prefix="memdb-scaling-") as folder:
        for per_tx in (25, 400):
            run("in memory", f"file:scaling{per_tx}?mode=memory", [], per_tx)
            path = os.path.join(folder, f"scaling{per_tx}.db")
            run("file", f"file:{path}",
                ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL", "PRAGMA cache_size = -8192"], per_tx)


if __name__ == "__main__":
    main()
