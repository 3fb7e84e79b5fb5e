#!/usr/bin/env bash
# Serves the app and the simulator (demo scenario) on one origin: http://127.0.0.1:8080
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
page=""
[ -f "scenarios/${SCENARIO:-demo}/fleet.json" ] && page="/fleet"
echo "fluxlens demo: http://127.0.0.1:8080$page  (scenario: ${SCENARIO:-demo}; Ctrl-C to stop)"
exec target/release/fluxlens-sim --addr 127.0.0.1:8080 --dist dist --scenario "${SCENARIO:-demo}"
