#!/usr/bin/env bash
# Measures the desktop app on a 100,000-item collection (issue 6): time from launch to the first
# table shown, time to load and draw the whole collection page by page, time to jump to its end,
# and the memory of the app's processes with it open. A script, not a test: nothing in CI runs it.
#
#   bench/app/run.sh          # needs target/debug/dynotable and dynotable-local (make test-build)
set -euo pipefail
cd "$(dirname "$0")/../.."

app="${DYNOTABLE_APP:-$PWD/target/debug/dynotable}"
local_bin="${DYNOTABLE_LOCAL:-$PWD/target/debug/dynotable-local}"
[ -x "$app" ] && [ -x "$local_bin" ] || { echo "build first: make test-build" >&2; exit 1; }

scratch=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  # The web view's helper processes are not our children and may still be writing their shader
  # cache for a moment after the app quits.
  rm -rf "$scratch" 2>/dev/null || { sleep 2; rm -rf "$scratch"; }
}
trap cleanup EXIT

# The app's embedded database, filled beforehand by dynotable-local (the same engine and file
# format); the demo marker keeps the app from loading the demo tables on top.
data="$scratch/data"
mkdir -p "$data/embedded"
touch "$data/embedded/demo-loaded"
port=$(.venv/bin/python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$local_bin" --port "$port" --db "$data/embedded/local.db" >"$scratch/local.log" 2>&1 &
local_pid=$!
pids+=($local_pid)
.venv/bin/python bench/app/measure.py load --endpoint "http://127.0.0.1:$port"
kill "$local_pid"; wait "$local_pid" 2>/dev/null || true

display=99
while [ -e "/tmp/.X11-unix/X$display" ] || [ -e "/tmp/.X$display-lock" ]; do display=$((display + 1)); done
Xvfb ":$display" -screen 0 1280x800x24 -nolisten tcp >"$scratch/xvfb.log" 2>&1 &
pids+=($!)
export DISPLAY=":$display"
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$display" ] && break; sleep 0.1; done

# tauri-driver starts the app, which inherits this environment.
export XDG_DATA_HOME="$scratch/xdg-data" XDG_CONFIG_HOME="$scratch/xdg-config" XDG_CACHE_HOME="$scratch/xdg-cache"
export DYNOTABLE_DATA_DIR="$data" AWS_CONFIG_FILE="$scratch/none" AWS_SHARED_CREDENTIALS_FILE="$scratch/none"
driver_port=4455
tauri-driver --port "$driver_port" --native-driver /usr/bin/WebKitWebDriver >"$scratch/driver.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$driver_port") 2>/dev/null && break; sleep 0.1; done

.venv/bin/python bench/app/measure.py app --app "$app" --driver "http://127.0.0.1:$driver_port" \
  --out bench/app/results.md
