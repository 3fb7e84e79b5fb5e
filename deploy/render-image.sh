#!/bin/sh
# Renders the image's two site configs with the CSP hashes of the built pages, leaving the
# values a deployment chooses as placeholders that docker-entrypoint.sh fills at start. The
# Dockerfile runs it with the image's paths; the kit test runs it with the checkout's, then
# starts the entrypoint itself, as the image's user.
#
# usage: deploy/render-image.sh OUT_DIR APP_ROOT SUBPATH_ROOT PLUGIN_ROOT
#   OUT_DIR       receives standalone.conf.in and beside-operator.conf.in
#   APP_ROOT      where nginx finds dist/            (image: /usr/share/fluxlens)
#   SUBPATH_ROOT  where nginx finds dist-fluxlens/   (image: /usr/share/fluxlens-subpath)
#   PLUGIN_ROOT   where nginx finds deploy/plugin/   (image: /usr/share/fluxlens-plugin)
# Run from the repository root after scripts/build.sh.
set -eu
[ $# -eq 4 ] || { sed -n '2,13p' "$0" >&2; exit 2; }
out=$1 app=$2 sub=$3 plugin=$4
here=$(dirname "$0")
mkdir -p "$out"
common="--api http://FLUXLENS-API.invalid --frame-ancestors FLUXLENS-FRAME-ANCESTORS --listen FLUXLENS-LISTEN --brotli"
# shellcheck disable=SC2086 # $common is a list of arguments
python3 "$here/render.py" --dist dist --root "$app" $common --out "$out/standalone.conf.in"
# shellcheck disable=SC2086
python3 "$here/render.py" --subpath --dist dist-fluxlens --root "$sub" --plugin-root "$plugin" \
  --ui http://FLUXLENS-UI.invalid $common --out "$out/beside-operator.conf.in"
