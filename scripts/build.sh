#!/usr/bin/env bash
# Builds the release app into dist/ and the simulator. Never downloads a tool.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
# dist/ and dist-fluxlens/ (the same app served under /fluxlens/, deploy/nginx/
# fluxlens-subpath.conf.template), precompressed for nginx and the simulator; nothing when they
# are up to date (scripts/build.py).
python3 scripts/build.py
# The Docker build stage needs the app only.
[ -n "${FLUXLENS_BUILD_ONLY:-}" ] && exit 0
cargo build --release -p fluxlens-sim
