#!/usr/bin/env bash
# Runs the end-to-end tests of the real desktop window: a display (Xvfb when there is none),
# tauri-driver with Debian's WebKitWebDriver, and pytest driving the window through WebDriver.
# The app binary must already be built (make builds it with the tests).
set -euo pipefail
cd "$(dirname "$0")/../.."

app="${DYNOTABLE_APP:-$PWD/target/debug/dynotable}"
[ -x "$app" ] || { echo "e2e: $app is not built; run make test" >&2; exit 1; }
artifacts="${DYNOTABLE_ARTIFACTS:-$PWD/test-artifacts}"
mkdir -p "$artifacts"

scratch=$(mktemp -d)
pids=()
cleanup() {
  local rc=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  # The web view's helper processes are not our children and may still be writing their shader
  # cache for a moment after the app quits: try again, and never let the clean-up decide the
  # run's result (a leftover scratch folder in /tmp is not a failed test).
  rm -rf "$scratch" 2>/dev/null || { sleep 2; rm -rf "$scratch" 2>/dev/null; } ||
    echo "e2e: could not remove the scratch folder $scratch" >&2
  exit "$rc"
}
trap cleanup EXIT

if [ -z "${DISPLAY:-}" ]; then
  # A private Xvfb on a display number it picks itself (-displayfd), so two runs side by side
  # never share or fight over one.
  Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$scratch/display" >"$artifacts/xvfb.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do [ -s "$scratch/display" ] && break; sleep 0.1; done
  [ -s "$scratch/display" ] || { echo "e2e: Xvfb did not start:" >&2; cat "$artifacts/xvfb.log" >&2; exit 1; }
  export DISPLAY=":$(tr -d '[:space:]' <"$scratch/display")"
fi

# A fresh data folder, so the app starts as on first launch and the test knows where it writes,
# and AWS config files of the test's own, so the profiles the app discovers are known.
export DYNOTABLE_DATA_DIR="$scratch/data"
# The web view keeps its own storage (local storage, caches) under the XDG folders, named after
# the app: point them into the scratch folder too, so the tests leave the user's own alone.
export XDG_DATA_HOME="$scratch/xdg-data" XDG_CONFIG_HOME="$scratch/xdg-config" XDG_CACHE_HOME="$scratch/xdg-cache"
export AWS_CONFIG_FILE="$scratch/aws-config" AWS_SHARED_CREDENTIALS_FILE="$scratch/aws-credentials"
printf '[profile e2e-sso]\nsso_session = corp\nregion = eu-west-1\n\n[sso-session corp]\nsso_start_url = https://corp.example/start\nsso_region = eu-west-1\n' >"$AWS_CONFIG_FILE"
printf '[e2e-keys]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = not-a-real-secret\n' >"$AWS_SHARED_CREDENTIALS_FILE"
# Two free loopback ports, for tauri-driver and the WebKitWebDriver behind it: never fixed ones,
# so another run on the same machine (another checkout, a CI job beside this one) is never
# reached by mistake. A port found free can be taken by someone's outgoing connection before
# tauri-driver listens on it: then tauri-driver exits at once, and new ports are tried.
# The sockets are closed before the ports are printed: a socket still bound while Python exits
# made tauri-driver's own bind fail (it does not share a port with a bound socket), about one
# start in three on a busy machine, and sometimes five in a row.
free_ports() {
  python3 -c '
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks: s.bind(("127.0.0.1", 0))
ports = [s.getsockname()[1] for s in socks]
for s in socks: s.close()
print(*ports, flush=True)'
}
port=""
for attempt in 1 2 3 4 5; do
  read -r candidate native_port < <(free_ports)
  tauri-driver --port "$candidate" --native-port "$native_port" --native-driver /usr/bin/WebKitWebDriver >"$artifacts/tauri-driver.log" 2>&1 &
  driver_pid=$!
  for _ in $(seq 100); do
    kill -0 "$driver_pid" 2>/dev/null || break
    if (exec 3<>"/dev/tcp/127.0.0.1/$candidate") 2>/dev/null; then port=$candidate; break; fi
    sleep 0.1
  done
  if [ -n "$port" ]; then pids+=("$driver_pid"); break; fi
  kill "$driver_pid" 2>/dev/null || true
  # tauri-driver starts WebKitWebDriver before it listens, and leaves it running when it exits.
  pkill -f "WebKitWebDriver --port=$native_port " 2>/dev/null || true
  echo "e2e: tauri-driver could not start on ports $candidate/$native_port (attempt $attempt): $(tr '\n' ' ' <"$artifacts/tauri-driver.log")" >&2
done
[ -n "$port" ] || { echo "e2e: tauri-driver did not start in 5 attempts" >&2; exit 1; }

DYNOTABLE_APP="$app" DYNOTABLE_ARTIFACTS="$artifacts" TAURI_DRIVER_URL="http://127.0.0.1:$port" \
  .venv/bin/python -m pytest -q tests/e2e "$@"
