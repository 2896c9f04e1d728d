#!/usr/bin/env bash
# The OS keychain test on Linux (crates/dynotable-app/tests/os_keychain.rs) against a real Secret
# Service: GNOME Keyring on a private D-Bus session, with a throwaway home, so the user's own
# session bus and keyrings (~/.local/share/keyrings) are never touched. No mock anywhere.
#
#   scripts/keychain-test.sh        (make keychain-test)
#
# It fails when dbus-run-session or gnome-keyring-daemon is missing (scripts/setup.sh test
# installs them), or when the keyring does not come up: the test is never skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in dbus-run-session gnome-keyring-daemon; do
  command -v "$tool" >/dev/null || {
    echo "keychain-test: $tool is missing; run scripts/setup.sh test (Debian: dbus, gnome-keyring)" >&2
    exit 1
  }
done

# Build first, in the real home (cargo's and rustup's homes stay where they are). The workspace
# with the app's `custom-protocol` feature, as make's other cargo steps build it, so this reuses
# the compilation of `make rust-test` instead of building dynotable-app's dependencies again with
# other features (`cargo test -p dynotable-app --test os_keychain` runs the same test).
export CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}" RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}"
test=(cargo test --workspace --features custom-protocol --test os_keychain)
"${test[@]}" --no-run

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/home" "$scratch/run"
chmod 700 "$scratch/run"

# Inside the private session: unlock a new login keyring (password "test"), check that the Secret
# Service answers on the bus, then run the test.
HOME="$scratch/home" XDG_RUNTIME_DIR="$scratch/run" XDG_DATA_HOME="$scratch/home/.local/share" \
  XDG_CONFIG_HOME="$scratch/home/.config" XDG_CACHE_HOME="$scratch/home/.cache" \
  dbus-run-session -- sh -euc '
    printf test | gnome-keyring-daemon --unlock --components=secrets >/dev/null
    owned() {
      dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets | grep -q "boolean true"
    }
    tries=0
    until owned; do
      tries=$((tries + 1))
      [ "$tries" -le 100 ] || {
        echo "keychain-test: gnome-keyring-daemon started but no Secret Service is on the bus" >&2
        exit 1
      }
      sleep 0.1
    done
    "$@"
  ' sh "${test[@]}"
