#!/bin/sh
# Fills the API address and the embedding origins into the config rendered at build time,
# then runs nginx in the foreground.
set -eu
for v in "$FLUXLENS_API" "$FLUXLENS_FRAME_ANCESTORS"; do
  case "$v" in
    *";"*|*"{"*|*"}"*|*"|"*) echo "fluxlens: refusing a value with ; { } or |: $v" >&2; exit 2 ;;
  esac
done
api=$(printf '%s' "$FLUXLENS_API" | sed 's:/*$::')
sed -e "s|http://FLUXLENS-API.invalid|$api|g" -e "s|FLUXLENS-FRAME-ANCESTORS|$FLUXLENS_FRAME_ANCESTORS|g" \
  /etc/nginx/fluxlens.conf.in > /etc/nginx/conf.d/fluxlens.conf
exec nginx -g 'daemon off;'
