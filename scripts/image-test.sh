#!/usr/bin/env bash
# Builds the deploy image and starts it as a cluster would: its own user (uid 101), a read-only
# root filesystem with only /tmp writable, in each mode (standalone, beside-operator, fleet), and
# checks that it serves the app and refuses mutating requests.
#
# Two ways, one runtime stage (deploy/Dockerfile):
# - docker, when its daemon answers: the full multi-stage build (needs a registry for the Rust
#   and Debian images) and `docker run --read-only`.
# - buildah (installed by scripts/setup.sh), where no registry answers and containers cannot run
#   (these machines): a Debian bookworm base made by mmdebstrap from Debian's packages, kept
#   between runs as localhost/fluxlens-debian:<suite>-<date of the pin>; the runtime stage built
#   from it with the app built on this host (APP=host); then the image's own filesystem, mounted
#   read-only in a private mount namespace with a tmpfs at /tmp, runs the image's entrypoint
#   under chroot as the image's user, with the image's environment.
# Without either, it says so and skips.
set -euo pipefail
cd "$(dirname "$0")/.."
SUITE=bookworm
# Bump to rebuild the kept base (its packages are the suite's of that day).
BASE_PIN=2026-12-05
BASE_TAG=localhost/fluxlens-debian:$SUITE-$BASE_PIN
TAG=localhost/fluxlens:test

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_for() { for _ in $(seq 50); do curl -fs "$1" >/dev/null && return 0; sleep 0.2; done; return 1; }
fleet_json='{"clusters":[{"name":"a","url":"http://127.0.0.1:9","labels":{"wave":"1"}}]}'

# What every mode must do once started on $port: serve fluxlens at $path, list the fleet's
# cluster (fleet), refuse an action (standalone).
expect() { # mode port path
  local mode=$1 port=$2 path=$3
  wait_for "http://127.0.0.1:$port$path" || { echo "image-test: $mode does not answer on $path"; return 1; }
  # Read whole, then searched: `curl | grep -q` fails under pipefail when grep stops early.
  local page
  page=$(curl -fs "http://127.0.0.1:$port$path")
  grep -q fluxlens <<<"$page" || { echo "image-test: $mode does not serve $path"; return 1; }
  if [ "$mode" = fleet ]; then
    page=$(curl -fs "http://127.0.0.1:$port/clusters.json")
    grep -q '"name":"a"' <<<"$page" || { echo "image-test: fleet does not list its cluster"; return 1; }
  fi
  if [ "$mode" = standalone ]; then
    [ "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$port/api/v1/resource/action")" = 403 ] \
      || { echo "image-test: an action was not refused"; return 1; }
  fi
}

with_docker() {
  docker build -q -f deploy/Dockerfile -t fluxlens:test . >/dev/null
  [ "$(docker image inspect -f '{{.Config.User}}' fluxlens:test)" = "101:101" ] || { echo "image-test: the image must run as 101:101"; exit 1; }
  for spec in standalone:/ beside-operator:/fluxlens/ fleet:/fleet; do
    local mode=${spec%%:*} path=${spec#*:} port id
    port=$(free_port)
    id=$(docker run -d --rm --read-only --tmpfs /tmp --cap-drop ALL --security-opt no-new-privileges \
          -p "127.0.0.1:$port:8080" -e FLUXLENS_MODE="$mode" -e FLUXLENS_API=http://127.0.0.1:9 \
          -e FLUXLENS_FLEET="$fleet_json" fluxlens:test)
    expect "$mode" "$port" "$path" || { docker logs "$id"; docker rm -f "$id" >/dev/null; exit 1; }
    [ "$(docker exec "$id" id -u)" = 101 ] || { echo "image-test: $mode does not run as 101"; exit 1; }
    docker rm -f "$id" >/dev/null
    echo "image-test: $mode ok (docker: uid 101, read-only root, $path)"
  done
}

base_image() {
  if buildah inspect --type image "$BASE_TAG" >/dev/null 2>&1; then
    echo "image-test: base $BASE_TAG kept from an earlier run"; return
  fi
  echo "image-test: making the base $BASE_TAG (mmdebstrap, Debian $SUITE minbase; about a minute)"
  local tmp; tmp=$(mktemp -d)
  mmdebstrap --quiet --variant=minbase "$SUITE" "$tmp/rootfs.tar" http://deb.debian.org/debian
  podman import -q "$tmp/rootfs.tar" "$BASE_TAG" >/dev/null
  rm -rf "$tmp"
}

build_with_buildah() {
  local ctx; ctx=$(mktemp -d)
  mkdir -p "$ctx/deploy"
  cp -r dist dist-fluxlens "$ctx/"
  cp -r deploy/plugin deploy/nginx deploy/render.py deploy/fleet.py deploy/docker-entrypoint.sh deploy/Dockerfile "$ctx/deploy/"
  deploy/render-image.sh "$ctx/image-conf" /usr/share/fluxlens /usr/share/fluxlens-subpath /usr/share/fluxlens-plugin
  buildah bud -q --isolation chroot --layers=false --build-arg BASE="$BASE_TAG" --build-arg APP=host \
    -f "$ctx/deploy/Dockerfile" -t "$TAG" "$ctx" >"$ctx/build.log" 2>&1 || { cat "$ctx/build.log"; exit 1; }
  rm -rf "$ctx"
  # What the build leaves: the `host` stage's container and the images no tag names any more
  # (the previous test image); the kept base is tagged and stays.
  buildah containers --format '{{.ContainerID}} {{.ImageName}}' | awk 'NF == 1 {print $1}' | xargs -r buildah rm >/dev/null
  buildah rmi --prune >/dev/null 2>&1 || true
}

# The image's config, as `KEY=value` lines: User, Entrypoint and each Env entry.
image_config() {
  buildah inspect --type image "$TAG" | python3 -c '
import json, sys
c = json.load(sys.stdin)["OCIv1"]["config"]
print("USER=" + c.get("User", ""))
print("ENTRYPOINT=" + " ".join(c.get("Entrypoint") or []))
for e in c.get("Env") or []:
    print("ENV " + e)'
}

with_buildah() {
  base_image
  build_with_buildah
  local config user entrypoint root
  config=$(image_config)
  user=$(sed -n 's/^USER=//p' <<<"$config")
  entrypoint=$(sed -n 's/^ENTRYPOINT=//p' <<<"$config")
  [ "$user" = "101:101" ] || { echo "image-test: the image must run as 101:101, not '$user'"; exit 1; }
  mapfile -t env < <(sed -n 's/^ENV //p' <<<"$config")
  # Global: the exit trap removes it.
  ctr=$(buildah from -q "$TAG")
  root=$(buildah mount "$ctr")
  trap 'buildah umount "$ctr" >/dev/null 2>&1; buildah rm "$ctr" >/dev/null 2>&1 || true' EXIT
  for spec in standalone:/ beside-operator:/fluxlens/ fleet:/fleet; do
    local mode=${spec%%:*} path=${spec#*:} port pid log
    port=$(free_port); log=$(mktemp)
    # A private mount namespace: the image's root bound read-only, a tmpfs at /tmp, /dev; then
    # the entrypoint as the image's user, with the image's environment and this mode's values.
    unshare -m sh -c '
      root=$1; user=$2; entry=$3; shift 3
      mount --bind "$root" "$root" && mount -o remount,bind,ro "$root"
      mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
      mount --rbind /dev "$root/dev"
      if chroot "$root" touch /etc/fluxlens/written 2>/dev/null; then echo "the root is writable"; exit 3; fi
      exec chroot --userspec="$user" "$root" env -i "$@" $entry' \
      sh "$root" "$user" "$entrypoint" "${env[@]}" FLUXLENS_MODE="$mode" FLUXLENS_API=http://127.0.0.1:9 \
      FLUXLENS_FLEET="$fleet_json" FLUXLENS_LISTEN="127.0.0.1:$port" >"$log" 2>&1 &
    pid=$!
    if ! expect "$mode" "$port" "$path"; then cat "$log"; kill "$pid" 2>/dev/null; exit 1; fi
    [ "$(ps -o uid= -p "$pid" | tr -d ' ')" = 101 ] || { echo "image-test: $mode does not run as 101"; kill "$pid"; exit 1; }
    kill "$pid"; wait "$pid" 2>/dev/null || true; rm -f "$log"
    echo "image-test: $mode ok (buildah image from the mmdebstrap base: uid 101, read-only root, $path)"
  done
}

if command -v docker >/dev/null && docker info >/dev/null 2>&1; then
  with_docker
elif command -v buildah >/dev/null && command -v mmdebstrap >/dev/null && command -v podman >/dev/null \
     && [ "$(id -u)" = 0 ] && probe=$(mktemp -d) && unshare -m mount -t tmpfs tmpfs "$probe" 2>/dev/null \
     && rmdir "$probe"; then
  with_buildah
else
  echo "image-test: SKIPPED — no docker daemon, and buildah, mmdebstrap and podman (scripts/setup.sh installs them) need root and a private mount namespace here; the same entrypoint and configs run as uid 101 in e2e/nginx.test.mjs"
fi
