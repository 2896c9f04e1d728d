#!/usr/bin/env bash
# Proves the tests leave the user's own files alone: the AWS config and credentials, DynoTable's
# app data folders, and the keyrings. `before` records every path and modification time under
# them; `after` fails (naming what changed) if anything there was created, changed or removed.
#
#   scripts/home-guard.sh before   # at the start of make test
#   scripts/home-guard.sh after    # at the end
set -euo pipefail
cd "$(dirname "$0")/.."

record="target/home-guard.txt"
home="${HOME:?HOME is not set}"
guarded=(
  "$home/.aws"
  "$home/.local/share/io.dynotable.DynoTable"
  "$home/.config/io.dynotable.DynoTable"
  "$home/.cache/io.dynotable.DynoTable"
  "$home/.local/share/dynotable"
  "$home/Library/Application Support/io.dynotable.DynoTable"
  "$home/.local/share/keyrings"
)

snapshot() {
  for path in "${guarded[@]}"; do
    if [ -e "$path" ]; then
      find "$path" -printf '%p %T@ %s\n' 2>/dev/null | sort
    else
      echo "$path absent"
    fi
  done
}

case "${1:-}" in
  before)
    mkdir -p target
    snapshot >"$record"
    ;;
  after)
    [ -f "$record" ] || { echo "home-guard: no snapshot; run 'before' first" >&2; exit 2; }
    if ! diff <(cat "$record") <(snapshot) >target/home-guard.diff; then
      echo "home-guard: the tests touched the user's own files (AWS config, app data or keyring):" >&2
      cat target/home-guard.diff >&2
      exit 1
    fi
    echo "home-guard: the AWS config, DynoTable's app data and the keyrings are untouched"
    ;;
  *)
    echo "usage: $0 before|after" >&2
    exit 2
    ;;
esac
