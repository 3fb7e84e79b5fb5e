#!/usr/bin/env bash
# Runs every check and test tier: fmt, clippy (host + wasm32), native tests (core, sim),
# wasm-bindgen tests in headless Chromium, and Playwright end-to-end tests on the simulator.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "format"
cargo fmt --all --check
step "clippy (host)"
cargo clippy --workspace --all-targets -- -D warnings
step "clippy (wasm32)"
cargo clippy -p fluxlens --all-targets --target wasm32-unknown-unknown -- -D warnings
step "native tests (core, sim)"
cargo test -p fluxlens-core -p fluxlens-sim
step "component tests (wasm-bindgen-test, headless Chromium)"
CHROMEDRIVER=/usr/bin/chromedriver cargo test -p fluxlens --target wasm32-unknown-unknown --test web
step "build"
scripts/build.sh
step "end-to-end (Playwright on the simulator)"
node --test --test-concurrency=1 e2e/
