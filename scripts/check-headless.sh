#!/usr/bin/env bash
# The headless crates must never compile the desktop toolkit, and only the crates that talk to
# AWS may compile its SDK (docs/architecture.md, "Rules that keep the house easy to live in").
# Fails, naming the crate and the offending package, if `cargo tree` shows otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

# Crates allowed to depend on the AWS SDK.
aws_allowed=" dynotable-aws dynotable-app "
status=0
# The desktop toolkit is refused on every edge, tests included. The AWS SDK is refused in what a
# crate ships (normal and build edges): a headless crate's tests may drive it with a real SDK
# client, as dynotable-server's raw-socket tests do (a client that must stay served).
toolkit='^(tauri|tauri-[a-z-]+|wry|webkit2gtk|webkit2gtk-sys|gtk|gtk-sys)$'
sdk='^(aws-sdk-[a-z0-9-]+|aws-config)$'
for manifest in crates/*/Cargo.toml; do
  crate=$(basename "$(dirname "$manifest")")
  offenders=$(cargo tree -p "$crate" --edges normal,build,dev --prefix none --format '{p}' 2>/dev/null \
    | awk '{print $1}' | sort -u | grep -E "$toolkit" || true)
  case "$aws_allowed" in
    *" $crate "*) ;;
    *) offenders="$offenders$(cargo tree -p "$crate" --edges normal,build --prefix none --format '{p}' 2>/dev/null \
         | awk '{print $1}' | sort -u | grep -E "$sdk" || true)" ;;
  esac
  if [ -n "$offenders" ]; then
    echo "check-headless: $crate depends on $(echo "$offenders" | tr '\n' ' ')" >&2
    status=1
  fi
done
[ $status -eq 0 ] && echo "check-headless: no crate under crates/ depends on Tauri or GTK/WebKit, or ships (outside dynotable-aws/-app) the AWS SDK"
exit $status
