#!/usr/bin/env bash
# Development: `trunk serve` rebuilds the app (debug, no split, no wasm-opt) on every change and
# serves it at http://127.0.0.1:8081, its /api/ proxied to the simulator on :9080 (started here
# with the demo scenario) or to a port-forwarded Flux Operator. Installs Trunk once (pinned).
set -euo pipefail
cd "$(dirname "$0")/.."
TRUNK_VERSION=0.21.14          # 0.22.x needs rustc >= 1.96.1
scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
if ! trunk --version 2>/dev/null | grep -qx "trunk $TRUNK_VERSION"; then
  echo "dev: installing trunk $TRUNK_VERSION (about 9 minutes on 2 cores)"
  cargo install trunk --locked --version "$TRUNK_VERSION"
fi
if ! curl -fsS http://127.0.0.1:9080/api/v1/report >/dev/null 2>&1; then
  cargo build -q -p fluxlens-sim
  target/debug/fluxlens-sim --addr 127.0.0.1:9080 --scenario demo &
  trap 'kill $!' EXIT
fi
trunk serve --offline
