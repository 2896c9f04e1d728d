#!/usr/bin/env python3
"""How fast SQLite itself writes the rows of the benchmark's load, beside dynotable-local.

The load target of issue #3 asks for BatchWriteItem at 10x dynoxide's rate. This script
measures the ceiling SQLite puts on any engine that keeps DynamoDB's data as dynotable-local
does (the issue asks for it: items and index entries in one SQLite file, changed together in
each write's transaction, with the item-collection statistics kept in that transaction):

1. it starts `dynotable-local` on a fresh file (and, when given, dynoxide on a file and
   dynalite in memory, as in bench/run.sh), creates the Telemetry table and loads the 100,000
   items with the benchmark driver (`dynobench --attach ... --phase load`) at c=1 and at c=16,
   a fresh server each time — the servers' own figures and the targets, in the same run;
2. it reads back the rows dynotable-local wrote at c=16: each item's entry and its `ByDepot`
   entry;
3. it writes those same rows again, straight into fresh SQLite files through Python's
   `sqlite3` (C calls, no HTTP, no JSON, no validation: a lower bound on everything but
   SQLite), in the load's arrival order (reading 0 of every vehicle, then reading 1, ...),
   one transaction per 25 items (one BatchWriteItem) or per 400 (a group commit of 16), with
   the collection and keyspace totals summed per transaction as the engine does.

Each replay is shown with what it keeps and drops, so the table says what a different
storage layout could gain at most. Usage:

    bench/write_floor.py --server target/release/dynotable-local \
        --driver bench/driver/target/release/dynobench \
        [--dynoxide bench/.tools/bin/dynoxide] [--dynalite bench/node_modules/dynalite/cli.js] \
        [--before /tmp/old-dynotable-local] [--quick]

dynotable-local is loaded in file and in memory mode (`--before`: another build too, in the same
run), and the last table sets each load against SQLite's own rate for the same rows (issue 18.9):
file mode against the replay "as dynotable-local writes them", memory mode against the replay in
a `memdb` database as `--in-memory` keeps it. `--quick` replays only those two.

Only timings of whole replays are reported; run it under `flock /tmp/bench.lock` on a shared
machine.
"""

import argparse
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCHEMA = Path(__file__).resolve().parent.parent / "crates/dynotable-engine/migrations/0001_catalog.sql"
BY_SIZE = "CREATE INDEX collections_by_size ON collections (keyspace, size_bytes DESC);"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, proc, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"server exited with {proc.returncode} before listening")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return
        except OSError:
            time.sleep(0.01)
    sys.exit(f"nothing listened on port {port} within {timeout} s")


def load(command, driver, folder, concurrency):
    """One server from `command` ({port}, {dir} filled in), the table created, the 100,000 items
    loaded at `concurrency` by the driver; returns the driver's figures."""
    port = free_port()
    argv = [a.replace("{port}", str(port)).replace("{dir}", folder) for a in command]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, proc)
        attach = [driver, "--attach", f"{proc.pid}:{port}"]
        subprocess.run(attach + ["--phase", "create"], check=True, stdout=subprocess.DEVNULL)
        out = subprocess.run(attach + ["--phase", "load", "--concurrency", str(concurrency)],
                             check=True, stdout=subprocess.PIPE, text=True).stdout
        return json.loads(out.strip().splitlines()[-1])
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def read_rows(db):
    """The load's writes in arrival order: per item (base entry, index entry), and the keyspace ids."""
    con = sqlite3.connect(db)
    ids = dict(((t, i), k) for k, t, i in con.execute("SELECT id, table_name, index_name FROM keyspaces"))
    base_ks, gsi_ks = ids[("Telemetry", None)], ids[("Telemetry", "ByDepot")]
    cols = "keyspace, pk, sk, tail, body, size"
    # Arrival order is reading-major: by sort key (recordedAt), then partition key (vehicle).
    base = con.execute(f"SELECT {cols} FROM entries WHERE keyspace = ? ORDER BY sk, pk", (base_ks,)).fetchall()
    # An index entry's tail is the base item's encoded primary key, so (sk, tail) is the same order.
    gsi = con.execute(f"SELECT {cols} FROM entries WHERE keyspace = ? ORDER BY sk, tail", (gsi_ks,)).fetchall()
    con.close()
    if len(base) != len(gsi) or not all(g[3].startswith(b[1]) for b, g in zip(base, gsi)):
        sys.exit("the index entries do not pair with the items one to one")
    return list(zip(base, gsi)), (base_ks, gsi_ks)


def replay(path, pairs, keyspaces, per_tx, *, checkpoints=True, by_size=True, index_body=True):
    """Writes `pairs` into a fresh database at `path`; returns (items/s, CPU µs per 25 items)."""
    memdb = path.startswith("file:/")
    for suffix in ("", "-wal", "-shm"):
        if path != ":memory:" and not memdb and os.path.exists(path + suffix):
            os.remove(path + suffix)
    con = sqlite3.connect(path, isolation_level=None, uri=memdb)
    # The writer's settings (crates/dynotable-engine/src/lib.rs): WAL, synchronous=NORMAL
    # (an acknowledged write survives kill -9), an 8 MiB page cache; in memory on the `memdb`
    # VFS (`--in-memory` since issue 18.8), the journal in memory.
    con.execute("PRAGMA journal_mode = MEMORY" if memdb else "PRAGMA journal_mode = WAL")
    con.execute("PRAGMA synchronous = NORMAL")
    con.execute("PRAGMA cache_size = -8192")
    if not checkpoints:
        con.execute("PRAGMA wal_autocheckpoint = 0")
    schema = SCHEMA.read_text()
    con.executescript(schema if by_size else schema.replace(BY_SIZE, ""))
    for ks in sorted(keyspaces):
        con.execute("INSERT INTO keyspaces (id, table_name) VALUES (?, 't')", (ks,))
    transactions = []
    for start in range(0, len(pairs), per_tx):
        chunk = pairs[start:start + per_tx]
        rows, collections, totals = [], {}, {}
        for base, entry in chunk:
            rows.append(base)
            rows.append(entry if index_body else entry[:4] + (b"",) + entry[5:])
            for ks, pk, size in ((base[0], base[1], base[5]), (entry[0], entry[1], entry[5])):
                c = collections.setdefault((ks, pk), [0, 0])
                c[0] += 1
                c[1] += size
                t = totals.setdefault(ks, [0, 0])
                t[0] += 1
                t[1] += size
        transactions.append((rows, [(k[0], k[1], v[0], v[1]) for k, v in collections.items()],
                             [(v[0], v[1], k) for k, v in totals.items()]))
    wall, cpu = time.perf_counter(), time.process_time()
    for rows, collections, totals in transactions:
        con.execute("BEGIN IMMEDIATE")
        con.executemany("INSERT OR REPLACE INTO entries (keyspace, pk, sk, tail, body, size) "
                        "VALUES (?, ?, ?, ?, ?, ?)", rows)
        con.executemany("INSERT INTO collections (keyspace, pk, item_count, size_bytes) VALUES (?, ?, ?, ?) "
                        "ON CONFLICT (keyspace, pk) DO UPDATE SET item_count = item_count + excluded.item_count, "
                        "size_bytes = size_bytes + excluded.size_bytes", collections)
        con.executemany("UPDATE keyspaces SET item_count = item_count + ?, size_bytes = size_bytes + ? "
                        "WHERE id = ?", totals)
        con.execute("COMMIT")
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    con.close()
    return len(pairs) / wall, cpu / len(pairs) * 25 * 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", required=True, help="the dynotable-local binary")
    ap.add_argument("--driver", required=True, help="the dynobench binary (bench/driver)")
    ap.add_argument("--dynoxide", help="the dynoxide binary, to load it in the same run (file mode)")
    ap.add_argument("--dynalite", help="dynalite's cli.js, to load it in the same run (node, memory)")
    ap.add_argument("--before", help="another dynotable-local binary, loaded in both modes in the same run")
    ap.add_argument("--quick", action="store_true",
                    help="replay only what the load target compares with (no ablations)")
    args = ap.parse_args()
    servers = [("dynotable-local (file)", [args.server, "--port", "{port}", "--db", "{dir}/loaded.db"]),
               ("dynotable-local (memory)", [args.server, "--port", "{port}", "--in-memory"])]
    if args.before:
        servers += [("before (file)", [args.before, "--port", "{port}", "--db", "{dir}/loaded.db"]),
                    ("before (memory)", [args.before, "--port", "{port}", "--in-memory"])]
    if args.dynoxide:
        servers.append(("dynoxide (file)", [args.dynoxide, "serve", "--port", "{port}", "--db-path", "{dir}/bench.db"]))
    if args.dynalite:
        servers.append(("dynalite (memory)", ["node", args.dynalite, "--host", "127.0.0.1", "--port", "{port}",
                                              "--createTableMs", "0", "--deleteTableMs", "0"]))
    print(f"`uptime` at the start: {os.getloadavg()}\n")
    print("| server, over HTTP | load c=1, items/s | load c=16, items/s | server CPU µs per batch of 25, c=16 |")
    print("|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="write-floor-") as work:
        rates = {}
        for name, command in servers:
            figures = {}
            for concurrency in (1, 16):
                folder = os.path.join(work, f"{len(rates)}-{concurrency}")
                os.mkdir(folder)
                figures[concurrency] = load(command, args.driver, folder, concurrency)
            rates[name] = (figures[1]["items_per_s"], figures[16]["items_per_s"])
            print(f"| {name} | {rates[name][0]:,.0f} | {rates[name][1]:,.0f} | "
                  f"{figures[16]['server_cpu_us_per_op']:,.0f} |", flush=True)
        for name, factor in (("dynoxide (file)", 10), ("dynalite (memory)", 5)):
            if name in rates:
                c1, c16 = rates[name]
                print(f"| target: {factor}× {name} | {factor * c1:,.0f} | {factor * c16:,.0f} | |")
        pairs, keyspaces = read_rows(os.path.join(work, "0-16", "loaded.db"))
        print(f"\n{len(pairs)} items read back from dynotable-local's c=16 file; `uptime`: {os.getloadavg()}\n")
        print("| SQLite alone, the same rows | items/commit | items/s | CPU µs per 25 items |")
        print("|---|---:|---:|---:|")
        file = os.path.join(work, "replay.db")
        as_written = "as dynotable-local writes them; SQLite's own checkpoints"
        in_memdb = "in memory (`memdb` VFS, shared cache, as `--in-memory`), as written"
        cases = [
            (as_written, file, {}),
            ("… no checkpoint at all (the log grows without bound)", file, dict(checkpoints=False)),
            ("… and no `collections_by_size` index", file, dict(checkpoints=False, by_size=False)),
            ("… and index entries without the item's body", file,
             dict(checkpoints=False, by_size=False, index_body=False)),
            ("in memory (`:memory:`), as written", ":memory:", {}),
            (in_memdb, "file:/write-floor?vfs=memdb&cache=shared", {}),
        ]
        if args.quick:
            cases = [case for case in cases if case[0] in (as_written, in_memdb)]
        floors = {}
        for label, path, options in cases:
            for per_tx in (25, 400):
                rate, cpu = replay(path, pairs, keyspaces, per_tx, **options)
                floors[(label, per_tx)] = rate
                print(f"| {label} | {per_tx} | {rate:,.0f} | {cpu:,.0f} |", flush=True)
        # Issue 18.9: the load against SQLite's own rate for the same rows, in the same run; c=1
        # against one transaction per batch of 25, c=16 against a group commit of 16 batches.
        print(f"\n`uptime`: {os.getloadavg()}\n")
        print("| server | mode | load c=1 / SQLite at 25 a commit | load c=16 / SQLite at 400 a commit |")
        print("|---|---|---:|---:|")
        for name, (c1, c16) in rates.items():
            if "dynotable-local" not in name and "before" not in name:
                continue
            floor = in_memdb if "memory" in name else as_written
            f25, f400 = floors.get((floor, 25)), floors.get((floor, 400))
            if f25 and f400:
                print(f"| {name} | {floor} | {c1 / f25:.2f}× ({c1:,.0f} / {f25:,.0f}) | "
                      f"{c16 / f400:.2f}× ({c16:,.0f} / {f400:,.0f}) |")


if __name__ == "__main__":
    main()
