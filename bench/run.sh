#!/usr/bin/env bash
# DynoTable benchmark: dynotable-local against dynalite and dynoxide, one workload, one run.
#
#   bench/run.sh                 # build everything, run all servers in turn, update README.md
#   BENCH_QUICK=1 bench/run.sh   # a smoke run: 100 vehicles, 1 s phases (BENCH_DURATION), no 1M table
#
# Knobs (environment): BENCH_DURATION (seconds per timed phase, default 5), BENCH_SCALE
# (table sizes for the Query-p50 curve, default 10000,100000,1000000), BENCH_SCALE_BUDGET
# (seconds a peer's size table may take to load before it is skipped, default 60;
# dynotable-local's own are always loaded), BENCH_STREAM_ITEMS (items the streams phase puts
# while its consumer tails the stream, default 5000),
# BENCH_DYNALITE_FILE=1 (also run dynalite on LevelDB files), BENCH_NO_README=1 (print only),
# BENCH_FLOOR_THREADS (worker threads of the floor server, the target `floor`: default 0, a
# current-thread runtime; `floor-mt` is the same server on 2 workers).
# For quick iterations on a few figures: BENCH_PHASES (only these phases after the startups and
# the c=16 load, comma-separated: load_c1,get,query,gsi_query,scan,race,tx,streams,scale),
# BENCH_TARGETS (only these targets, comma-separated NAME or NAME:MODE, e.g.
# dynotable-local,dynoxide:file, floor), BENCH_LOCAL_BEFORE=PATH (also run that dynotable-local
# binary, as "dynotable-local-before" in both modes, or in the modes BENCH_TARGETS keeps of
# dynotable-local: a before/after in one run). A run with any of these
# never writes README.md.
#
# Everything is built in release mode into CARGO_TARGET_DIR (default /tmp/target-bench), so the
# repository's own target/ is never touched; dynoxide is installed into bench/.tools and dynalite
# into bench/node_modules (both gitignored). Servers run one at a time, on loopback only.
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$BENCH")"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/tmp/target-bench}"
DYNOXIDE_VERSION=3.2.0
RUN_DIR="${BENCH_RUN_DIR:-/tmp/dynobench}"

step() { printf '\n==> %s\n' "$*" >&2; }

step "building dynotable-local (release, $CARGO_TARGET_DIR)"
cargo build --release --locked -p dynotable-server --manifest-path "$ROOT/Cargo.toml"

step "building the load driver"
cargo build --release --locked --manifest-path "$BENCH/driver/Cargo.toml"

step "installing dynalite (npm ci)"
npm ci --prefix "$BENCH" --no-audit --no-fund --loglevel=error

step "installing dynoxide-rs $DYNOXIDE_VERSION (cargo install into bench/.tools)"
# (The binary reports its product version, not the crate's: dynoxide-rs 3.2.0 prints 1.5.0.)
if ! grep -qs "\"dynoxide-rs $DYNOXIDE_VERSION " "$BENCH/.tools/.crates.toml"; then
  cargo install --locked --root "$BENCH/.tools" --version "$DYNOXIDE_VERSION" dynoxide-rs
fi

LOCAL="$CARGO_TARGET_DIR/release/dynotable-local"
DRIVER="$CARGO_TARGET_DIR/release/dynobench"
DYNOXIDE="$BENCH/.tools/bin/dynoxide"
DYNALITE="$BENCH/node_modules/dynalite/cli.js"
NODE="$(command -v node)"

# NAME|KIND|MODE[:how]|COMMAND  ({port}: a free loopback port, {dir}: a fresh empty folder)
targets=(
  --target "dynotable-local|dynotable|file:SQLite file, WAL, synchronous=NORMAL (--durability process, the default: every acknowledged write survives kill -9)|$LOCAL --port {port} --db {dir}/bench.db"
  --target "dynotable-local|dynotable|memory:SQLite in-memory|$LOCAL --port {port} --in-memory"
  --target "dynoxide|dynoxide|file:SQLite file, WAL, synchronous=FULL (SQLite default)|$DYNOXIDE serve --port {port} --db-path {dir}/bench.db"
  --target "dynoxide|dynoxide|memory:SQLite in-memory (no --db-path)|$DYNOXIDE serve --port {port}"
  --target "dynalite|dynalite|memory:memory-level (its default, no --path)|$NODE $DYNALITE --host 127.0.0.1 --port {port} --createTableMs 0 --deleteTableMs 0"
  # The floor: a canned GetItem answer and no work (dynobench serve-floor); GetItem phase only.
  --target "floor|floor|canned:the same GetItem answer to every request, no work, hyper on a tokio runtime of ${BENCH_FLOOR_THREADS:-0} workers (0: current-thread)|$DRIVER serve-floor --port {port} --threads ${BENCH_FLOOR_THREADS:-0}"
  # The same server on a multi-thread runtime of 2 workers: on a quiet machine the faster one.
  --target "floor-mt|floor|canned-mt:the same canned answer, hyper on a tokio runtime of 2 workers|$DRIVER serve-floor --port {port} --threads 2"
  # The same answer from a thread per connection that busy-polls its socket and never sleeps.
  --target "floor-spin|floor|spin:the same canned answer, a busy-polling thread per connection (never sleeps)|$DRIVER serve-floor --port {port} --spin"
)
if [ -n "${BENCH_LOCAL_BEFORE:-}" ]; then
  targets+=(
    --target "dynotable-local-before|dynotable|file:SQLite file, WAL, that build's default (synchronous=FULL before c859f95)|$BENCH_LOCAL_BEFORE --port {port} --db {dir}/bench.db"
    --target "dynotable-local-before|dynotable|memory:SQLite in-memory|$BENCH_LOCAL_BEFORE --port {port} --in-memory"
  )
fi
if [ "${BENCH_DYNALITE_FILE:-0}" = 1 ]; then
  targets+=(--target "dynalite|dynalite|file:LevelDB (classic-level) files, writes not fsynced|$NODE $DYNALITE --host 127.0.0.1 --port {port} --path {dir}/ldb --createTableMs 0 --deleteTableMs 0")
fi

opts=(--duration "${BENCH_DURATION:-5}" --stream-items "${BENCH_STREAM_ITEMS:-5000}" --scale "${BENCH_SCALE:-10000,100000,1000000}" --scale-budget "${BENCH_SCALE_BUDGET:-60}")
if [ "${BENCH_QUICK:-0}" = 1 ]; then
  opts=(--vehicles 100 --duration "${BENCH_DURATION:-1}" --warmup 0.2 --scale 10000,100000 --scale-budget 30 --startups 2 --stream-items 1000)
fi

if [ -n "${BENCH_TARGETS:-}" ]; then
  kept=()
  for ((i = 1; i < ${#targets[@]}; i += 2)); do
    spec="${targets[$i]}"
    name="${spec%%|*}"
    name="${name%-before}" # BENCH_LOCAL_BEFORE's binary runs wherever dynotable-local does
    mode="$(echo "$spec" | cut -d'|' -f3 | cut -d: -f1)"
    if [[ ",$BENCH_TARGETS," == *",$name,"* || ",$BENCH_TARGETS," == *",$name:$mode,"* ]]; then
      kept+=(--target "$spec")
    fi
  done
  targets=("${kept[@]}")
fi
if [ -n "${BENCH_PHASES:-}" ]; then
  opts+=(--phases "$BENCH_PHASES")
fi
partial=0
[ -n "${BENCH_TARGETS:-}${BENCH_PHASES:-}${BENCH_LOCAL_BEFORE:-}" ] && partial=1

cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
header="Run of $(date -u '+%Y-%m-%d %H:%M UTC') at commit \`$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')\`$(git -C "$ROOT" diff --quiet HEAD -- crates 2>/dev/null || echo ' (with uncommitted changes under crates/)'):
$(nproc) cores ($cpu), $(free -g | awk '/^Mem:/{print $2}') GiB, $(uname -sr); \`uptime\` at the start: \`$(uptime | sed 's/.*load average/load average/')\`.
Versions: $("$LOCAL" --version), crate dynoxide-rs $DYNOXIDE_VERSION (\`$("$DYNOXIDE" --version)\`), dynalite $(node -p "require('$BENCH/node_modules/dynalite/package.json').version") on node $(node --version).
"

step "running the workload (one server at a time)"
mkdir -p "$BENCH/results"
"$DRIVER" "${targets[@]}" "${opts[@]}" --run-dir "$RUN_DIR" --header "$header" \
  --out-json "$BENCH/results/latest.json" --out-md "$BENCH/results/latest.md"

if [ "${BENCH_NO_README:-0}" != 1 ] && [ "${BENCH_QUICK:-0}" != 1 ] && [ "$partial" = 0 ]; then
  step "writing the table into bench/README.md"
  python3 - "$BENCH/README.md" "$BENCH/results/latest.md" <<'EOF'
import sys
readme, table = sys.argv[1], open(sys.argv[2]).read()
text = open(readme).read()
begin, end = "<!-- results:begin -->", "<!-- results:end -->"
a, b = text.index(begin) + len(begin), text.index(end)
open(readme, "w").write(text[:a] + "\n" + table.strip() + "\n" + text[b:])
EOF
fi
rm -rf "$RUN_DIR"
