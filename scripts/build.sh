#!/usr/bin/env bash
# Builds the release app into dist/ and the simulator. Never downloads a tool (--offline).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
trunk build --release --offline
# The same app for serving under /fluxlens/ (deploy/nginx/fluxlens-subpath.conf.template).
trunk build --release --offline --public-url /fluxlens/ --dist dist-fluxlens
python3 - <<'PY'
p = "dist-fluxlens/index.html"
s = open(p).read()
if 'name="fluxlens-base"' not in s:
    s = s.replace("<head>", '<head>\n  <meta name="fluxlens-base" content="/fluxlens">', 1)
open(p, "w").write(s)
PY
# Precompressed assets for nginx's gzip_static/brotli_static and the simulator (issue #15).
python3 scripts/precompress.py dist dist-fluxlens
# The Docker build stage needs the app only.
[ -n "${FLUXLENS_BUILD_ONLY:-}" ] && exit 0
cargo build --release -p fluxlens-sim
