#!/usr/bin/env bash
# Installs what fluxlens needs and is missing. Idempotent; every version pinned.
# Needs only rustup/cargo, node/npm and apt (as root) on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."

LEPTOSFMT_VERSION=0.1.33       # formats every view! macro; make test checks it
WASM_SPLIT_VERSION=0.2.4       # wasm-split-cli: cuts the wasm into the overview and a chunk per page
# wasm-bindgen-cli must equal the wasm-bindgen crate in Cargo.lock exactly.
WB_VERSION=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

say() { printf '\033[1msetup:\033[0m %s\n' "$*"; }
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo

BROTLI_MODULES="/usr/lib/nginx/modules/ngx_http_brotli_static_module.so /usr/lib/nginx/modules/ngx_http_brotli_filter_module.so"
# FLUXLENS_BUILD_ONLY=1 (the Docker build stage): only what building the app needs.
if [ -z "${FLUXLENS_BUILD_ONLY:-}" ] && { ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null || ! command -v nginx >/dev/null \
   || ! command -v brotli >/dev/null || ! ls $BROTLI_MODULES >/dev/null 2>&1 || ! python3 -c 'import yaml' 2>/dev/null \
   || ! command -v qemu-aarch64-static >/dev/null || ! command -v buildah >/dev/null || ! command -v mmdebstrap >/dev/null \
   || ! command -v podman >/dev/null || ! command -v clang >/dev/null || ! command -v llvm-ar >/dev/null; }; then
  say "installing chromium, chromium-driver, nginx with brotli's static and filter modules, brotli, python3-yaml, qemu-user-static, buildah, podman, mmdebstrap, clang, llvm (apt)"
  $SUDO apt-get update -qq
  # qemu-user-static runs the arm64 release binary in make test (scripts/release-test.sh);
  # buildah, podman and mmdebstrap build the deploy image from Debian's packages (image-test.sh).
  # clang and llvm-ar build ring's C for the plugin's static musl binaries (scripts/release.py).
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver nginx-light \
    libnginx-mod-http-brotli-static libnginx-mod-http-brotli-filter brotli python3-yaml qemu-user-static buildah podman mmdebstrap clang llvm >/dev/null
fi

rustup target list --installed | grep -qx wasm32-unknown-unknown || { say "adding wasm32 target"; rustup target add wasm32-unknown-unknown; }
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy rustfmt
# make release: the plugin's static Linux binaries (scripts/release.py).
if [ -z "${FLUXLENS_BUILD_ONLY:-}" ]; then
  for t in x86_64-unknown-linux-musl aarch64-unknown-linux-musl; do
    rustup target list --installed | grep -qx "$t" || { say "adding $t target (make release)"; rustup target add "$t"; }
  done
fi

if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $WB_VERSION"; then
  say "installing wasm-bindgen-cli $WB_VERSION"
  # Not --locked: its lockfile pins a crate version the registry no longer has.
  cargo install wasm-bindgen-cli --version "$WB_VERSION" --force
fi
# scripts/split.py, in the release build (scripts/build.py): cuts the module at its #[wasm_split] points.
# (The tool has no --version: cargo's own list of installed packages says which is there.)
if ! cargo install --list | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
  say "installing wasm-split-cli $WASM_SPLIT_VERSION (about 2 minutes on 2 cores)"
  cargo install wasm_split_cli_support --locked --version "$WASM_SPLIT_VERSION" --features build-binary
fi
# Not in the Docker build stage: formatting is checked, not built.
if [ -z "${FLUXLENS_BUILD_ONLY:-}" ] && ! leptosfmt --version 2>/dev/null | grep -qx "leptosfmt $LEPTOSFMT_VERSION"; then
  say "installing leptosfmt $LEPTOSFMT_VERSION (about 3 minutes on 2 cores)"
  cargo install leptosfmt --locked --version "$LEPTOSFMT_VERSION"
fi
if [ -n "${FLUXLENS_BUILD_ONLY:-}" ]; then
  # The Docker build stage: only wasm-opt and esbuild are needed, not the 43 MB SARIF validator.
  { [ -x node_modules/.bin/wasm-opt ] && [ -f node_modules/esbuild-wasm/package.json ]; } || npm ci --no-audit --no-fund --omit=optional
elif [ ! -x node_modules/.bin/wasm-opt ] || [ ! -f node_modules/esbuild-wasm/package.json ] || [ ! -d node_modules/playwright-core ] || [ ! -f node_modules/axe-core/axe.min.js ] \
   || [ ! -f node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool ]; then
  say "installing node tooling (binaryen wasm-opt, esbuild, playwright-core, axe-core, SARIF Multitool)"
  npm ci --no-audit --no-fund
fi
# Debian's binaryen 108 silently breaks the app; package.json pins binaryen 132, first on PATH.
wasm-opt --version | grep -q 'version 132' || { echo "setup: wrong wasm-opt on PATH: $(command -v wasm-opt)" >&2; exit 1; }
say "ready"
