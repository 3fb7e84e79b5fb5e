.PHONY: demo dev test bench build setup screenshots fmt rules generate release kit
# Serve the app on the built-in demo backend at http://127.0.0.1:8080
demo:
	scripts/demo.sh
# Develop: rebuild on change and serve at http://127.0.0.1:8081 (Trunk, debug, demo backend)
dev:
	scripts/dev.sh
# Run every test tier
test:
	scripts/test.sh
setup:
	scripts/setup.sh
build:
	scripts/build.sh
# The Flux CLI plugin's release: archives for linux amd64/arm64, checksums.txt and the catalog
# manifest flux-lens.plugin.yaml in release/ (TAG=vX.Y.Z to name the tag; default v<version>)
release:
	scripts/setup.sh && python3 scripts/release.py --out release $(if $(TAG),--tag $(TAG))
# The deploy kit as a Flux OCI artifact (an OCI image layout in kit-artifact/, to push with oras
# or crane and sign with cosign: deploy/README.md, "Delivered by Flux"); IMAGE=name@sha256:… is
# the image it runs, pinned by digest
kit:
	python3 scripts/kit-artifact.py --image "$(IMAGE)" --out kit-artifact $(if $(TAG),--tag $(TAG))
# Run the benchmarks and rewrite BENCHMARKS.md
bench:
	scripts/bench.sh
# The README's screenshots, light and dark, demo and a real-sized homelab (docs/screenshots)
screenshots:
	scripts/build.sh && node e2e/screenshots.mjs
# Format the Rust sources, then every view! macro (the order make test checks them in)
fmt:
	cargo fmt --all && leptosfmt src tests
# Write what is generated from core: the rule reference (docs/rules.md, docs/rules.html) and the
# page script's constants line (src/api/prefetch.js)
generate:
	FLUXLENS_WRITE_RULES=1 cargo test -p fluxlens-core --lib -- reference_in_the_repository constants_core
rules: generate
