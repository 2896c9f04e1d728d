#!/usr/bin/env bash
# Runs the end-to-end tests of the real desktop window: a display (Xvfb when there is none),
# tauri-driver with Debian's WebKitWebDriver, and pytest driving the window through WebDriver.
# The app binary must already be built (make builds it with the tests).
set -euo pipefail
cd "$(dirname "$0")/../.."

app="${DYNOTABLE_APP:-$PWD/target/debug/dynotable}"
[ -x "$app" ] || { echo "e2e: $app is not built; run make test" >&2; exit 1; }
artifacts="$PWD/test-artifacts"
mkdir -p "$artifacts"

scratch=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT

if [ -z "${DISPLAY:-}" ]; then
  # Find a free display number for a private Xvfb.
  display=99
  while [ -e "/tmp/.X11-unix/X$display" ] || [ -e "/tmp/.X$display-lock" ]; do display=$((display + 1)); done
  Xvfb ":$display" -screen 0 1280x800x24 -nolisten tcp >"$artifacts/xvfb.log" 2>&1 &
  pids+=($!)
  export DISPLAY=":$display"
  for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$display" ] && break; sleep 0.1; done
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
port=4444
tauri-driver --port "$port" --native-driver /usr/bin/WebKitWebDriver >"$artifacts/tauri-driver.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done

DYNOTABLE_APP="$app" DYNOTABLE_ARTIFACTS="$artifacts" TAURI_DRIVER_URL="http://127.0.0.1:$port" \
  .venv/bin/python -m pytest -q tests/e2e "$@"
