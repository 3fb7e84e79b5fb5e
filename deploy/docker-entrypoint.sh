#!/bin/sh
# Starts fluxlens' nginx as the user the container runs as (the image: uid 101), writing only
# under FLUXLENS_RUN_DIR — the root filesystem may be read-only (mount an emptyDir at /tmp).
#
#   FLUXLENS_MODE             standalone (default): fluxlens at /, only the reads it makes are
#                             forwarded to the operator;
#                             beside-operator: the operator UI stays at / and every UI path,
#                             fluxlens at /fluxlens/, the launcher added to the operator's pages
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

fail() { echo "fluxlens: $*" >&2; exit 2; }
case "$mode" in
  standalone|beside-operator) ;;
  *) fail "FLUXLENS_MODE must be standalone or beside-operator, not '$mode'" ;;
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
sed -e "s|http://FLUXLENS-API.invalid|$api|g" -e "s|http://FLUXLENS-UI.invalid|$ui|g" \
    -e "s|FLUXLENS-FRAME-ANCESTORS|$ancestors|g" -e "s|FLUXLENS-LISTEN|$listen|g" \
    "$conf/$mode.conf.in" > "$run/site.conf"

brotli=/usr/lib/nginx/modules/ngx_http_brotli_static_module.so
modules=""
[ -f "$brotli" ] && modules="load_module $brotli;"
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
echo "fluxlens: $mode on $listen, API $api" >&2
# -e: the compiled-in error log (/var/log/nginx) is opened before the config is read.
exec nginx -e stderr -p "$run" -c "$run/nginx.conf" -g 'daemon off;'
