#!/usr/bin/env bash
# The kit delivered by Flux (#50): its OCI artifact and deploy/flux applied to the artifact's
# files (scripts/kit-artifact.py --test), then deploy/flux judged by fluxlens-check itself: the
# examples a user copies must pass the posture fluxlens grades (verified source, pinned
# identity), and the same examples without verification, or with an identity any workflow
# matches, must fail it.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/kit-artifact.py --test
# Kustomize itself, where kubectl carries it: the kit's files render to the pinned image.
if command -v kubectl >/dev/null; then
  files=$(mktemp -d); image="ghcr.io/fluxlens/fluxlens@sha256:$(printf 'cd%.0s' $(seq 32))"
  python3 scripts/kit-artifact.py --image "$image" --files "$files" >/dev/null
  for dir in kubernetes kubernetes-fleet; do
    kubectl kustomize "$files/$dir" | grep -q "image: $image\$" || { echo "kit: kustomize renders $dir without $image"; exit 1; }
  done
  rm -rf "$files"; echo "kit: kubectl kustomize renders both kits to the pinned image"
fi
check=${FLUXLENS_CHECK:-target/debug/fluxlens-check}
[ -x "$check" ] || cargo build -q -p fluxlens-check
"$check" --fail-on low deploy/flux >/dev/null || { "$check" --fail-on low deploy/flux; echo "kit: deploy/flux fails fluxlens's own check"; exit 1; }
scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT
for edit in "/^  verify:/,\$d" "s/subject: .*/subject: .*/"; do
  rm -f "$scratch"/*.yaml; cp deploy/flux/*.yaml "$scratch/"
  sed -i "$edit" "$scratch/kit-source.yaml"
  if "$check" --fail-on low "$scratch" >/dev/null; then echo "kit: the check passed deploy/flux with '$edit'"; exit 1; fi
done
echo "kit: deploy/flux passes fluxlens-check at --fail-on low; without verify, or with an open identity, it fails"
