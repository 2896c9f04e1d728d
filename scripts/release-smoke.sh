#!/usr/bin/env bash
# Installs a built .deb as a user would, into the root this runs in (a clean Debian or Ubuntu
# container in the GitHub workflow; a fresh debootstrap chroot by hand, see docs/releasing.md),
# then starts DynoTable under Xvfb as a new user would and checks, within a minute:
#   - the installed `dynotable` is on PATH and its desktop entry names it;
#   - a window titled "DynoTable" is mapped and viewable on the display;
#   - the embedded engine's database appears in the user's data folder (the demo tables load);
#   - the app is still running 10 s after its window appeared.
# Usage (as root, in the clean root): scripts/release-smoke.sh path/to/DynoTable_<version>_amd64.deb
set -euo pipefail

deb=$(realpath "${1:?usage: scripts/release-smoke.sh DynoTable_<version>_amd64.deb}")
export DEBIAN_FRONTEND=noninteractive

echo "release-smoke: installing $(basename "$deb") and a virtual display"
apt-get update -qq
# The package's own dependencies come from its control file; xvfb, xauth and x11-utils (xwininfo)
# are the test's.
apt-get install -y -qq --no-install-recommends "$deb" xvfb xauth x11-utils >/dev/null

command -v dynotable >/dev/null || { echo "release-smoke: no dynotable on PATH after the install" >&2; exit 1; }
desktop=$(grep -ls '^Exec=dynotable' /usr/share/applications/*.desktop || true)
[ -n "$desktop" ] || { echo "release-smoke: no desktop entry runs dynotable" >&2; exit 1; }
echo "release-smoke: installed $(command -v dynotable), desktop entry $desktop"

# A new user: an empty home and XDG folders, no session bus (the embedded engine needs no keychain).
home=$(mktemp -d)
export HOME=$home XDG_DATA_HOME=$home/.local/share XDG_CONFIG_HOME=$home/.config XDG_CACHE_HOME=$home/.cache
export RELEASE_SMOKE_LOG=$home/app.log
database=$XDG_DATA_HOME/io.dynotable.DynoTable/embedded/local.db

xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
  set -u
  dynotable >"$RELEASE_SMOKE_LOG" 2>&1 &
  app=$!
  fail() { echo "release-smoke: $1" >&2; echo "--- the app said:" >&2; cat "$RELEASE_SMOKE_LOG" >&2; kill $app 2>/dev/null; exit 1; }
  window=""
  for _ in $(seq 1 120); do
    kill -0 $app 2>/dev/null || fail "the app exited before its window appeared"
    # Viewable: mapped, with every ancestor mapped (a window GTK has made but not shown is not).
    window=$(xwininfo -name DynoTable 2>/dev/null | grep -E "Window id|Map State|geometry" | tr -s " \n" " " || true)
    case "$window" in *IsViewable*) break ;; esac
    window=""
    sleep 0.5
  done
  [ -n "$window" ] || fail "no viewable window titled DynoTable within 60 s"
  echo "release-smoke: window:$window"
  for _ in $(seq 1 120); do
    [ -s "'"$database"'" ] && break
    sleep 0.5
  done
  [ -s "'"$database"'" ] || fail "the embedded engine made no database in 60 s"
  echo "release-smoke: the embedded engine made '"$database"'"
  sleep 10
  kill -0 $app 2>/dev/null || fail "the app exited within 10 s of opening its window"
  kill $app
  wait $app 2>/dev/null || true
'
echo "release-smoke: passed"
