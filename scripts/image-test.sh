#!/usr/bin/env bash
# Builds the deploy image and runs it as a cluster would: its own user (uid 101), a read-only
# root filesystem with only /tmp writable, in both modes. Needs a running container engine
# (docker or podman); scripts/test.sh calls it when one answers. Without one the same
# entrypoint and configs run as uid 101 in e2e/nginx.test.mjs. Fleet mode renders its config at
# start from FLUXLENS_FLEET.
set -euo pipefail
cd "$(dirname "$0")/.."
engine=""
for e in docker podman; do
  if command -v "$e" >/dev/null && "$e" info >/dev/null 2>&1; then engine=$e; break; fi
done
[ -n "$engine" ] || { echo "image-test: no container engine answers; skipped"; exit 0; }
tag=fluxlens:test
"$engine" build -q -f deploy/Dockerfile -t "$tag" . >/dev/null
[ "$("$engine" image inspect -f '{{.Config.User}}' "$tag")" = "101:101" ] || { echo "image-test: the image must run as 101:101"; exit 1; }
check() { # mode, path that must serve fluxlens
  local mode=$1 path=$2 port id
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  id=$("$engine" run -d --rm --read-only --tmpfs /tmp --cap-drop ALL --security-opt no-new-privileges \
        -p "127.0.0.1:$port:8080" -e FLUXLENS_MODE="$mode" -e FLUXLENS_API=http://127.0.0.1:9 \
        -e FLUXLENS_FLEET='{"clusters":[{"name":"a","url":"http://127.0.0.1:9","labels":{"wave":"1"}}]}' "$tag")
  trap '"$engine" rm -f "$id" >/dev/null 2>&1 || true' RETURN
  for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port$path" >/dev/null && break; sleep 0.2; done
  curl -fs "http://127.0.0.1:$port$path" | grep -q fluxlens || { "$engine" logs "$id"; echo "image-test: $mode does not serve $path"; exit 1; }
  [ "$("$engine" exec "$id" id -u)" = 101 ] || { echo "image-test: $mode does not run as 101"; exit 1; }
  if [ "$mode" = fleet ]; then
    curl -fs "http://127.0.0.1:$port/clusters.json" | grep -q '"name":"a"' \
      || { echo "image-test: fleet does not list its cluster"; exit 1; }
  fi
  if [ "$mode" = standalone ]; then
    [ "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$port/api/v1/resource/action")" = 403 ] \
      || { echo "image-test: an action was not refused"; exit 1; }
  fi
  echo "image-test: $mode ok (uid 101, read-only root, $path)"
}
check standalone /
check beside-operator /fluxlens/
check fleet /fleet
