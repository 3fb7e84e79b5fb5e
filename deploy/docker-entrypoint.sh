#!/bin/sh
# Starts fluxlens' nginx as the user the container runs as (the image: uid 101), writing only
# under FLUXLENS_RUN_DIR — the root filesystem may be read-only (mount an emptyDir at /tmp).
#
#   FLUXLENS_MODE             standalone (default): fluxlens at /, only the reads it makes are
#                             forwarded to the operator;
#                             beside-operator: the operator UI stays at / and every UI path,
#                             fluxlens at /fluxlens/, the launcher added to the operator's pages;
#                             fleet: every cluster of a fleet file behind this one origin
#                             (/fleet, /clusters/<name>/; deploy/README.md, Fleet)
#   FLUXLENS_FLEET_FILE       fleet: the fleet file, YAML or JSON (/etc/fluxlens/fleet/fleet.yaml,
#                             a mounted ConfigMap), unless FLUXLENS_FLEET holds the text itself
#   FLUXLENS_KIT_DIR          fleet: deploy/render.py and its templates (/usr/share/fluxlens-kit)
#   FLUXLENS_APP_DIR          fleet: the built app (/usr/share/fluxlens)
#   FLUXLENS_RENDERS_DIR      fleet: the renders the fleet file names, served at /renders/
#                             (/etc/fluxlens/renders, a mounted ConfigMap)
#   FLUXLENS_API              the flux-operator web server (http://flux-operator.flux-system.svc:9080)
#   FLUXLENS_UI               beside-operator: the operator UI (default: FLUXLENS_API)
#   FLUXLENS_FRAME_ANCESTORS  who may embed fluxlens in an iframe ('self')
#   FLUXLENS_LISTEN           port, or address:port, to listen on (8080)
#   FLUXLENS_RUN_DIR          writable: the rendered config, pid and temp files (/tmp/fluxlens)
#   FLUXLENS_CONF_DIR         the image's config templates (/etc/fluxlens)
set -eu
mode=${FLUXLENS_MODE:-standalone}
api=${FLUXLENS_API:-http://flux-operator.flux-system.svc:9080}
ui=${FLUXLENS_UI:-$api}
ancestors=${FLUXLENS_FRAME_ANCESTORS:-"'self'"}
listen=${FLUXLENS_LISTEN:-8080}
run=${FLUXLENS_RUN_DIR:-/tmp/fluxlens}
conf=${FLUXLENS_CONF_DIR:-/etc/fluxlens}
# Debian's brotli modules: the prebuilt .br files, and the API's answers compressed as they pass.
brotli_static=/usr/lib/nginx/modules/ngx_http_brotli_static_module.so
brotli_filter=/usr/lib/nginx/modules/ngx_http_brotli_filter_module.so

fail() { echo "fluxlens: $*" >&2; exit 2; }
case "$mode" in
  standalone|beside-operator|fleet) ;;
  *) fail "FLUXLENS_MODE must be standalone, beside-operator or fleet, not '$mode'" ;;
esac
for v in "$api" "$ui" "$ancestors" "$listen" "$run"; do
  case "$v" in
    *";"*|*"{"*|*"}"*|*"|"*|*"
"*) fail "refusing a value with ; { } | or a newline: $v" ;;
  esac
done
mkdir -p "$run" 2>/dev/null && [ -w "$run" ] \
  || fail "cannot write $run: mount a writable volume there (an emptyDir at /tmp) or set FLUXLENS_RUN_DIR"

api=$(printf '%s' "$api" | sed 's:/*$::')
ui=$(printf '%s' "$ui" | sed 's:/*$::')
if [ "$mode" = fleet ]; then
  # The fleet's config is rendered here, at start: render.py checks every value of the fleet
  # file (names, labels, upstreams) and refuses the file with the reason.
  kit=${FLUXLENS_KIT_DIR:-/usr/share/fluxlens-kit}
  app=${FLUXLENS_APP_DIR:-/usr/share/fluxlens}
  file=${FLUXLENS_FLEET_FILE:-/etc/fluxlens/fleet/fleet.yaml}
  if [ -n "${FLUXLENS_FLEET:-}" ]; then
    file="$run/fleet.in"
    printf '%s\n' "$FLUXLENS_FLEET" > "$file"
  fi
  [ -r "$file" ] || fail "fleet: no fleet file at $file (mount one, or set FLUXLENS_FLEET)"
  brotli_flag=""
  [ -f "$brotli_static" ] && [ -f "$brotli_filter" ] && brotli_flag=--brotli
  renders=${FLUXLENS_RENDERS_DIR:-/etc/fluxlens/renders}
  python3 "$kit/render.py" --dist "$app" --fleet "$file" --listen "$listen" --renders "$renders" \
    --frame-ancestors "$ancestors" $brotli_flag --out "$run/site.conf" || exit 2
else
  sed -e "s|http://FLUXLENS-API.invalid|$api|g" -e "s|http://FLUXLENS-UI.invalid|$ui|g" \
      -e "s|FLUXLENS-FRAME-ANCESTORS|$ancestors|g" -e "s|FLUXLENS-LISTEN|$listen|g" \
      "$conf/$mode.conf.in" > "$run/site.conf"
fi

modules=""
[ -f "$brotli_static" ] && [ -f "$brotli_filter" ] && modules="load_module $brotli_static; load_module $brotli_filter;"
# As root (not how the image runs) the workers drop to nobody, who must own the temp files.
user=""
if [ "$(id -u)" = 0 ]; then
  echo "fluxlens: running as root; the image is meant to run as uid 101" >&2
  user="user nobody nogroup;"
fi
# The container's stdout is the access log, when this user may open it.
access="access_log /dev/stdout;"
[ -w /dev/stdout ] || access="access_log off;"
for d in body proxy fastcgi uwsgi scgi; do mkdir -p "$run/$d"; done
[ -n "$user" ] && chown -R nobody:nogroup "$run"
cat > "$run/nginx.conf" <<EOF
$modules
$user
worker_processes 1;
pid $run/nginx.pid;
error_log stderr;
events { worker_connections 512; }
http {
    include /etc/nginx/mime.types;
    $access
    client_body_temp_path $run/body;
    proxy_temp_path $run/proxy;
    fastcgi_temp_path $run/fastcgi;
    uwsgi_temp_path $run/uwsgi;
    scgi_temp_path $run/scgi;
    include $run/site.conf;
}
EOF
if [ "$mode" = fleet ]; then
  echo "fluxlens: fleet on $listen, $(grep -c '^    # cluster ' "$run/site.conf") clusters" >&2
else
  echo "fluxlens: $mode on $listen, API $api" >&2
fi
# -e: the compiled-in error log (/var/log/nginx) is opened before the config is read.
exec nginx -e stderr -p "$run" -c "$run/nginx.conf" -g 'daemon off;'
