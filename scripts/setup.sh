#!/usr/bin/env bash
# Installs what `make test` and `make run` need and a fresh machine lacks. Safe to re-run: each
# step checks first and does nothing when its part is already in place.
#
#   scripts/setup.sh            everything (Debian packages, npm packages, Python tools, tauri-driver,
#                               cargo-fuzz)
#   scripts/setup.sh run        only what `make run` needs (build packages, npm packages)
set -euo pipefail
cd "$(dirname "$0")/.."

what="${1:-test}"

# Debian packages Tauri 2 needs to build and run on Linux (WebKitGTK 4.1 and friends).
build_packages=(libwebkit2gtk-4.1-dev build-essential pkg-config file curl libssl-dev libxdo-dev
  libayatana-appindicator3-dev librsvg2-dev)
# What the end-to-end test of the real window adds: a virtual display, WebKit's WebDriver, and
# ImageMagick's `import` for the screenshot, xdotool to answer the native dialogs as a user would (by
# keyboard, from outside the web view); and what the OS keychain test adds: a private D-Bus
# session (dbus-run-session, dbus-send) with GNOME Keyring's Secret Service.
test_packages=(xvfb xauth webkit2gtk-driver imagemagick xdotool python3-venv dbus dbus-bin gnome-keyring)

packages=("${build_packages[@]}")
[ "$what" = test ] && packages+=("${test_packages[@]}")

install_debian_packages() {
  command -v dpkg-query >/dev/null || { echo "setup: not a Debian-like system; install the equivalents of: ${packages[*]}" >&2; return 0; }
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
  echo "setup: missing Debian packages: ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    sh -c "$cmd"
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo sh -c "$cmd"
  else
    echo "setup: these Debian packages are missing and this user cannot install them." >&2
    echo "setup: run this as root, then run make again:" >&2
    echo "  sudo sh -c '$cmd'" >&2
    exit 1
  fi
}

install_npm_packages() {
  # npm ci is skipped when node_modules already matches package-lock.json.
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund
  fi
}

install_test_peers() {
  # dynalite, the DynamoDB implementation the app's AWS code path is tested against (tests/peers).
  if [ ! -f tests/peers/node_modules/.package-lock.json ] || [ tests/peers/package-lock.json -nt tests/peers/node_modules/.package-lock.json ]; then
    npm ci --prefix tests/peers --no-audit --no-fund
  fi
}

install_codegen_packages() {
  # The JavaScript SDK v3 that the query builder's exported Node programs import, run by
  # tests/blackbox/test_builder_codegen.py (pinned in tests/codegen/package-lock.json).
  if [ ! -f tests/codegen/node_modules/.package-lock.json ] \
    || [ tests/codegen/package-lock.json -nt tests/codegen/node_modules/.package-lock.json ]; then
    npm ci --prefix tests/codegen --no-audit --no-fund
  fi
}

install_python_tools() {
  # The end-to-end test's WebDriver client (selenium) and runner (pytest), in a project venv.
  if [ ! -x .venv/bin/python ] || [ tests/requirements.txt -nt .venv/.installed ]; then
    python3 -m venv .venv
    .venv/bin/pip install --quiet --disable-pip-version-check -r tests/requirements.txt
    touch .venv/.installed
  fi
}

TAURI_DRIVER_VERSION=2.1.0
install_tauri_driver() {
  # tauri-driver bridges WebDriver clients to WebKitWebDriver for Tauri windows (crates.io).
  if ! tauri-driver --version 2>/dev/null | grep -q "$TAURI_DRIVER_VERSION"; then
    cargo install tauri-driver --locked --version "$TAURI_DRIVER_VERSION"
  fi
}

CARGO_FUZZ_VERSION=0.13.2
install_cargo_fuzz() {
  # cargo-fuzz builds and runs the fuzz targets of fuzz/ (libFuzzer, stable Rust with
  # --sanitizer none; `make fuzz-smoke`, docs/fuzzing.md) (crates.io).
  if ! cargo fuzz --version 2>/dev/null | grep -q "$CARGO_FUZZ_VERSION"; then
    cargo install cargo-fuzz --locked --version "$CARGO_FUZZ_VERSION"
  fi
}

install_debian_packages
install_npm_packages
if [ "$what" = test ]; then
  install_test_peers
  install_codegen_packages
  install_python_tools
  install_tauri_driver
  install_cargo_fuzz
fi
