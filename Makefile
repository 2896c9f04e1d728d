# DynoTable's command surface: for people, for .ci/run and for the GitHub workflow.
#
#   make run     build and open the desktop app on the embedded engine
#   make test    install what is missing, then run every check and test
#
# Every cargo step builds the app with the `custom-protocol` feature (the UI served from ui/dist),
# so clippy, the tests and the end-to-end run share one compilation of Tauri.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
CARGO_FEATURES := --features custom-protocol
export CARGO_TERM_COLOR ?= always

.PHONY: run test home-guard-before setup setup-run ui lint fmt headless-check rust-test keychain-test fuzz-smoke fuzz test-build blackbox ui-test e2e bindings dev app clean

run: setup-run ui
	cargo build $(CARGO_FEATURES) --bin dynotable
	@if [ -z "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ] && [ "$$(uname)" = Linux ]; then \
	  echo "make run: no display here (DISPLAY and WAYLAND_DISPLAY are unset)."; \
	  echo "Run the app on a virtual display instead:  xvfb-run -a target/debug/dynotable"; \
	  echo "or from a desktop session:                 make run"; \
	  exit 1; \
	fi
	target/debug/dynotable

test: setup home-guard-before headless-check fmt ui lint rust-test keychain-test fuzz-smoke blackbox ui-test e2e
	scripts/home-guard.sh after
	@echo "make test: all checks passed"

setup:
	scripts/setup.sh test

# The tests must never touch the user's AWS files, app data or keychain (issue 5): a snapshot
# before, compared after.
home-guard-before:
	scripts/home-guard.sh before

setup-run:
	scripts/setup.sh run

ui:
	npm run ui:build

headless-check:
	scripts/check-headless.sh

fmt:
	cargo fmt --all --check
	cargo fmt --manifest-path fuzz/Cargo.toml --check

lint:
	cargo clippy --workspace --all-targets $(CARGO_FEATURES) -- -D warnings
	npm run typecheck

rust-test:
	cargo test --workspace $(CARGO_FEATURES)

# The OS keychain for real: the app's keychain store against GNOME Keyring's Secret Service on a
# private D-Bus session with a throwaway home (never the user's session or keyrings).
keychain-test:
	scripts/keychain-test.sh

# The fuzz targets (fuzz/: the number, expression and PartiQL parsers and the request decoder),
# coverage-guided by libFuzzer on the stable toolchain, in their own instrumented build
# (target/fuzz): a few seconds each in `make test`; `make fuzz` is the long run (docs/fuzzing.md),
# e.g. `make fuzz FUZZ_SECONDS=3600 FUZZ_TARGETS=request`.
FUZZ_SMOKE_SECONDS ?= 5
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?=
fuzz-smoke:
	FUZZ_PROFILE=dev scripts/fuzz.sh $(FUZZ_SMOKE_SECONDS)

fuzz:
	scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The binaries the black-box and end-to-end tests run (target/debug/dynotable-local,
# target/debug/dynotable and the builder's exported Rust programs, target/debug/examples/codegen-*)
# are built by the workspace test build: after rust-test this is a no-op, and no second build with
# other features happens.
test-build:
	cargo test --workspace $(CARGO_FEATURES) --no-run

# dynotable-local driven by boto3, the AWS CLI and the builder's exported programs (tests/blackbox);
# the SDK for Rust tests run in rust-test.
blackbox: test-build
	.venv/bin/python -m pytest -q tests/blackbox

ui-test:
	npm run test:ui

e2e: test-build
	tests/e2e/run.sh

# Regenerates ui/src/ipc/bindings.gen.ts from the Rust commands.
bindings:
	DYNOTABLE_UPDATE_BINDINGS=1 cargo test $(CARGO_FEATURES) --test bindings

# The app with the Vite dev server and hot reload.
dev: setup-run
	npx tauri dev

# A release build and the platform's installers (deb/AppImage here, dmg on macOS, msi/nsis on Windows).
app: setup-run
	npx tauri build

clean:
	cargo clean
	rm -rf ui/dist test-artifacts
