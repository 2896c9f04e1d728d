#!/usr/bin/env bash
# The table screen's performance figures (issue 17) for two builds of the app in one run: start
# times, the Collections view of a 1,000,000-item table (10,000 collections) and of one
# 100,000-item collection (open and scroll, frame by frame), and memory. A script, not a test:
# nothing in CI runs it. Writes bench/app/views.md (or $VIEWS_OUT).
#
#   bench/app/views.sh BASELINE_BINARY [CURRENT_BINARY]
#       BASELINE_BINARY: an earlier build of target/debug/dynotable (copy it aside before building)
#       CURRENT_BINARY:  default target/debug/dynotable; dynotable-local must be built too
set -euo pipefail
cd "$(dirname "$0")/../.."

baseline="${1:?usage: bench/app/views.sh BASELINE_BINARY [CURRENT_BINARY]}"
current="${2:-$PWD/target/debug/dynotable}"
local_bin="${DYNOTABLE_LOCAL:-$PWD/target/debug/dynotable-local}"
for bin in "$baseline" "$current" "$local_bin"; do
  [ -x "$bin" ] || { echo "views.sh: $bin is not built" >&2; exit 1; }
done

scratch=$(mktemp -d)
pids=()
cleanup() {
  local rc=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  # The web view's helper processes are not our children and may still be writing their caches.
  rm -rf "$scratch" 2>/dev/null || { sleep 2; rm -rf "$scratch" 2>/dev/null; } || true
  exit "$rc"
}
trap cleanup EXIT

# The big tables, loaded once by dynotable-local (the same engine and file format as the app's)
# and kept in $VIEWS_CACHE for the next run (loading 1.1 million items takes minutes).
cache="${VIEWS_CACHE:-/tmp/dynotable-views-cache}"
if [ ! -e "$cache/loaded" ]; then
  rm -rf "$cache"; mkdir -p "$cache"
  port=$(.venv/bin/python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  "$local_bin" --port "$port" --db "$cache/loaded.db" >"$scratch/local.log" 2>&1 &
  local_pid=$!
  pids+=($local_pid)
  for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
  .venv/bin/python bench/app/views.py load --endpoint "http://127.0.0.1:$port"
  kill "$local_pid"; wait "$local_pid" 2>/dev/null || true
  touch "$cache/loaded"
fi

Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$scratch/display" >"$scratch/xvfb.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -s "$scratch/display" ] && break; sleep 0.1; done
export DISPLAY=":$(tr -d '[:space:]' <"$scratch/display")"
export XDG_DATA_HOME="$scratch/xdg-data" XDG_CONFIG_HOME="$scratch/xdg-config" XDG_CACHE_HOME="$scratch/xdg-cache"
export AWS_CONFIG_FILE="$scratch/none" AWS_SHARED_CREDENTIALS_FILE="$scratch/none"
driver_port=$(.venv/bin/python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
native_port=$(.venv/bin/python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
tauri-driver --port "$driver_port" --native-port "$native_port" --native-driver /usr/bin/WebKitWebDriver >"$scratch/driver.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$driver_port") 2>/dev/null && break; sleep 0.1; done

results="$scratch/results.jsonl"
for pair in "baseline:$baseline" "current:$current"; do
  .venv/bin/python bench/app/views.py measure --label "${pair%%:*}" --app "${pair#*:}" \
    --driver "http://127.0.0.1:$driver_port" --db "$cache/loaded.db" --scratch "$scratch" --out "$results"
done
.venv/bin/python bench/app/views.py report --results "$results" --out "${VIEWS_OUT:-bench/app/views.md}" --builds "${VIEWS_BUILDS:-debug builds}"
