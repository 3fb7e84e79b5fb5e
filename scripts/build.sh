#!/usr/bin/env bash
# Builds the release app into dist/ and the simulator. Never downloads a tool (--offline).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
trunk build --release --offline
cargo build --release -p fluxlens-sim
