#!/usr/bin/env bash
# Builds the fuzz targets (fuzz/, cargo-fuzz on libFuzzer, stable Rust with `--sanitizer none`)
# and runs each for a bounded time: docs/fuzzing.md.
#
#   scripts/fuzz.sh SECONDS [TARGET...]    every target (number expression partiql request) or
#                                          the ones named, SECONDS each, one after the other
#   FUZZ_PROFILE=dev scripts/fuzz.sh ...   an unoptimised instrumented build: it compiles in a
#                                          fraction of the release build's time and runs fewer
#                                          inputs a second (what the smoke in `make test` uses)
#
# `make fuzz-smoke` (part of `make test`) runs it for a few seconds per target. Each run starts
# from the seeds in fuzz/seeds/TARGET and the corpus earlier runs grew in target/fuzz/corpus/TARGET
# (new inputs go there, never into the repository); a crash is written to fuzz/artifacts/TARGET/
# and fails the script. Re-run one input with
#   target/fuzz/x86_64-unknown-linux-gnu/release/TARGET fuzz/artifacts/TARGET/crash-...
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

seconds="${1:?usage: scripts/fuzz.sh SECONDS [TARGET...]}"
shift
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(number expression partiql request)

target_dir="${FUZZ_TARGET_DIR:-$root/target/fuzz}"
# Release with debug assertions and overflow checks (cargo-fuzz's defaults), coverage
# instrumentation (SanitizerCoverage: inline 8-bit counters, PC table, comparison tracing), no
# sanitizer runtime: the mode that runs on the stable toolchain.
# FUZZ_PROFILE=dev: the same instrumentation on cargo's dev profile (debug assertions and overflow
# checks are on there anyway), for a smoke run where the build time dominates.
profile="${FUZZ_PROFILE:-release}"
case "$profile" in
  release) build_flags=(--fuzz-dir fuzz --sanitizer none --release --debug-assertions --target-dir "$target_dir") ;;
  dev) build_flags=(--fuzz-dir fuzz --sanitizer none --dev --target-dir "$target_dir") ;;
  *) echo "fuzz: FUZZ_PROFILE is release or dev, not '$profile'" >&2; exit 2 ;;
esac
profile_dir=release
[ "$profile" = dev ] && profile_dir=debug

started=$(date +%s)
cargo fuzz build "${build_flags[@]}"
built=$(date +%s)
echo "fuzz: built in $((built - started)) s"

triple="$(rustc -vV | sed -n 's/^host: //p')"
status=0
summary=()
for t in "${targets[@]}"; do
  binary="$target_dir/$triple/$profile_dir/$t"
  corpus="$target_dir/corpus/$t"
  artifacts="$root/fuzz/artifacts/$t"
  log="$target_dir/logs/$t.log"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  echo "fuzz: $t for $seconds s"
  # -max_len above the 4 KB expression limit and DynamoDB's 8 KB statement limit, so the size
  # checks are reached; -timeout: one input taking 10 s is a hang, reported like a crash.
  if "$binary" "$corpus" "fuzz/seeds/$t" \
    -dict="fuzz/dict/$t.dict" \
    -max_total_time="$seconds" \
    -max_len=20000 \
    -timeout=10 \
    -rss_limit_mb=2048 \
    -print_final_stats=1 \
    -artifact_prefix="$artifacts/" \
    >"$log" 2>&1; then
    result=ok
  else
    result="FAILED (see $log and $artifacts)"
    status=1
    tail -n 40 "$log" >&2
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  inputs=$(find "$corpus" -type f | wc -l)
  summary+=("$(printf '%-11s %12s executions in %s s, corpus %s inputs: %s' "$t" "${runs:-?}" "$seconds" "$inputs" "$result")")
done
printf 'fuzz: %s\n' "${summary[@]}"
exit $status
