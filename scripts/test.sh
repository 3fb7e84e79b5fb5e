#!/usr/bin/env bash
# Runs every check and test tier: fmt, clippy (host + wasm32), native tests (core, sim),
# wasm-bindgen tests in headless Chromium, and Playwright end-to-end tests on the simulator.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's time is kept and printed at the end (#71: a fresh clone's run stays under 20 min).
timings=()
current="setup (scripts/setup.sh)"
began=$SECONDS
step_done() { timings+=("$(printf '%5ds  %s' $((SECONDS - began)) "$current")"); }
step() { step_done; current="$*"; began=$SECONDS; printf '\n\033[1m== %s\033[0m\n' "$*"; }
scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

step "architecture (one HTTP door; core free of leptos/web-sys/gloo; no module cycles)"
# Only src/api/ may talk HTTP; views reach it through the loaders' state (the app starts the
# cluster loader, or on /fleet the fleet loader).
if grep -rnE "gloo_net|gloo::net|fetch_with_|XmlHttpRequest|crate::api::" src --include=*.rs | grep -v "^src/api/" \
  | grep -vE "crate::api::(loader::(start|POLL_SECONDS)|fleet::(start|POLL_SECONDS)|(object_events|window_events|drift)::serve)\b"; then
  echo "HTTP outside src/api/ (above)"; exit 1
fi
# Measurement switches stay out of the product (#48): the benches and tests edit a copy of the
# page instead of setting window flags the app would read.
if grep -rnE "__fluxlens(No[A-Z]|PrefetchUpTo)" src index.html; then
  echo "a measurement switch in product code (above)"; exit 1
fi
if grep -nE "^(leptos|web-sys|gloo|wasm-bindgen|js-sys)" crates/fluxlens-core/Cargo.toml; then
  echo "fluxlens-core must stay pure Rust (above)"; exit 1
fi
# Sibling modules never depend on each other in a cycle (#24): core's analyses read shared
# facts from facts/, finding/, enterprise/; the app's shell goes app → pages → components → router.
# Core is layered in the order data flows (docs/development.md, "Architecture"): each layer uses only those before it.
python3 scripts/module-cycles.py --layers crates/fluxlens-core/src=util,wire,model,load+analyses,render,share,fleet \
  crates/fluxlens-core/src crates/fluxlens-sim/src crates/fluxlens-check/src src
cyc=$(mktemp -d); printf 'use crate::b::X;\n' >"$cyc/a.rs"; printf 'use crate::a::Y;\n' >"$cyc/b.rs"
if python3 scripts/module-cycles.py "$cyc" >/dev/null; then echo "the cycle check missed a cycle"; exit 1; fi
lay=$(mktemp -d); printf 'use crate::b::X;\n' >"$lay/a.rs"; printf '\n' >"$lay/b.rs"
if python3 scripts/module-cycles.py --layers "$lay=a,b" >/dev/null; then echo "the layer check missed a breach"; exit 1; fi
# A test module kept in a file of its own (`#[cfg(test)] #[path = "…"] mod tests;`) is a test too.
tst=$(mktemp -d); mkdir "$tst/s"; printf 'pub mod f;\n' >"$tst/s/mod.rs"; printf 'use crate::s::f;\n' >"$tst/b.rs"
printf '#[cfg(test)]\n#[path = "f_tests.rs"]\nmod tests;\n' >"$tst/s/f.rs"; printf 'use crate::b::X;\n' >"$tst/s/f_tests.rs"
if ! python3 scripts/module-cycles.py "$tst" >/dev/null; then echo "the cycle check counted a test file as code"; exit 1; fi
rm -rf "$cyc" "$lay" "$tst"
# No function longer than a screen or two (#48: 150 lines).
python3 scripts/long-functions.py src crates
long=$(mktemp -d); { echo 'fn f() {'; for i in $(seq 151); do echo '    x();'; done; echo '}'; } >"$long/a.rs"
if python3 scripts/long-functions.py "$long" >/dev/null; then echo "the length check missed a long function"; exit 1; fi
rm -rf "$long"
# The build is standard steps on stable Rust (#71): no unstable flag, no synchronous request.
if grep -nE "RUSTC_BOOTSTRAP|-Z[a-z]|\+nightly|cargo-features" scripts/build.py scripts/split.py scripts/build.sh \
  scripts/setup.sh .cargo/config.toml Cargo.toml Makefile deploy/Dockerfile; then
  echo "an unstable toolchain switch in the build (above)"; exit 1
fi
if grep -rnE "XMLHttpRequest|XmlHttpRequest" src index.html; then echo "a synchronous request's API in the app (above)"; exit 1; fi
step "format (rustfmt, then leptosfmt for view! macros: make fmt writes both)"
cargo fmt --all --check
leptosfmt --check src tests
step "clippy (host)"
cargo clippy --workspace --all-targets -- -D warnings
step "clippy (wasm32)"
cargo clippy -p fluxlens --all-targets --target wasm32-unknown-unknown -- -D warnings
cargo clippy -p fluxlens --bins --target wasm32-unknown-unknown --features split -- -D warnings
step "fuzz targets compile (their own workspace; run with cargo +nightly fuzz)"
cargo check --manifest-path fuzz/Cargo.toml --bins
step "native tests (core, sim, check)"
rm -rf target/tmp/sarif
cargo test -p fluxlens-core -p fluxlens-sim -p fluxlens-check
step "SARIF the check wrote, validated as SARIF 2.1.0 (Microsoft SARIF Multitool)"
scripts/sarif-validate.sh
step "make release: plugin archives, checksums and catalog manifest (linux amd64, arm64)"
scripts/release-test.sh
step "the kit as a Flux OCI artifact, deploy/flux applied to it and judged by the check"
scripts/kit-flux-test.sh
step "every command README.md, docs/ and deploy/ show, checked against what it names"
cargo build -q -p fluxlens-check && python3 scripts/doc-commands.py
step "component tests (wasm-bindgen-test, headless Chromium)"
CHROMEDRIVER=/usr/bin/chromedriver cargo test -p fluxlens --target wasm32-unknown-unknown --test web
step "build (scripts/build.py: cargo, the split per page, bind, wasm-opt, the page; nothing when up to date)"
scripts/build.sh
# A tree already built is not built again (what `make demo` relies on to start at once).
python3 scripts/build.py | grep -q "up to date" || { echo "build: a second build of the same tree rebuilt"; exit 1; }
# The page is the page: its scripts and style, no module carried in it (#71: no byte moved twice).
for d in dist dist-fluxlens; do
  size=$(stat -c %s "$d/index.html"); [ "$size" -lt 40000 ] || { echo "$d/index.html is $size bytes"; exit 1; }
done
step "deploy image: built (buildah on an mmdebstrap base, or docker) and started as uid 101, read-only root"
scripts/image-test.sh
step "bench tooling (its arithmetic, without a browser)"
node --test bench/
step "end-to-end (Playwright on the simulator)"
# Two files at a time (this machine has two cores; each file starts its own simulator and browser).
node --test --test-concurrency=2 e2e/
step_done
printf '\n\033[1m== time by step (%d s in all)\033[0m\n' "$SECONDS"
printf '%s\n' "${timings[@]}"
