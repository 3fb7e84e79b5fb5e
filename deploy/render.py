#!/usr/bin/env python3
"""Renders deploy/nginx/fluxlens.conf.template for a built app.

usage: render.py --dist DIR --api URL [--listen 8080] [--frame-ancestors "'self' https://x"] [--brotli] [--out FILE]
       render.py --dist DIR --fleet FILE [...]   one origin for a fleet (deploy/README.md, Fleet)
Computes the CSP hashes of the inline scripts in DIST/index.html, so the policy needs no
'unsafe-inline' for scripts.
"""
import argparse, base64, hashlib, json, os, re, sys

here = os.path.dirname(os.path.abspath(__file__))
p = argparse.ArgumentParser()
p.add_argument("--dist", required=True)
p.add_argument("--api", help="the flux-operator web server (one cluster)")
p.add_argument("--fleet", help="a fleet file (YAML or JSON): clusters with name, url, labels, timeout, ui")
p.add_argument("--listen", default="8080")
p.add_argument("--renders", default="/etc/fluxlens/renders",
               help="with --fleet: the folder served at /renders/, where the renders the fleet file names are (a mounted ConfigMap)")
p.add_argument("--root", help="where nginx finds the built app, when it differs from --dist (a Docker build)")
p.add_argument("--frame-ancestors", default="'self'")
p.add_argument("--out", default="-")
p.add_argument("--subpath", action="store_true", help="serve under /fluxlens/ next to the operator UI, with the launcher plugin")
p.add_argument("--plugin-root", help="with --subpath: where nginx finds fluxlens-plugin.js (default: deploy/plugin)")
p.add_argument("--ui", help="with --subpath: the operator UI to proxy at / and every UI path (default: the API upstream)")
p.add_argument("--brotli", action="store_true",
               help="serve the prebuilt .br files and the API's answers with brotli (needs nginx's brotli static and filter modules loaded)")
p.add_argument("--no-compression", action="store_true", help="benchmarks only: serve everything uncompressed (the kit before issue #15)")
a = p.parse_args()
if bool(a.api) == bool(a.fleet):
    sys.exit("render.py: give --api URL (one cluster) or --fleet FILE (a fleet), not both")

html = open(os.path.join(a.dist, "index.html"), encoding="utf-8").read()
scripts = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", html, flags=re.S)
hashes = " ".join(dict.fromkeys("'sha256-%s'" % base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() for s in scripts))
for name, value in [("frame-ancestors", a.frame_ancestors), ("renders", a.renders)]:
    if any(c in value for c in ";\n{}"):
        sys.exit(f"render.py: --{name} must not contain ; newline or braces")
template = "fluxlens-fleet.conf.template" if a.fleet else "fluxlens-subpath.conf.template" if a.subpath else "fluxlens.conf.template"
conf = open(os.path.join(here, "nginx", template), encoding="utf-8").read()
if a.fleet:
    sys.path.insert(0, here)
    import fleet as fleet_kit
    clusters = fleet_kit.read(a.fleet)
    conf = conf.replace("@CLUSTERS_JSON@", fleet_kit.clusters_json(clusters)).replace("@CLUSTERS@", fleet_kit.locations(clusters))
api = (a.api or "http://unused.invalid").rstrip("/")
# The prebuilt .br files as they are; what has none — the API's JSON answers — compressed as it
# passes, the same types gzip covers (the template's list): the demo's objects read is 19.5 KB
# with brotli against 23.8 KB with gzip (#51). Level 6 (the module's default) takes ≈ 3 ms of CPU
# on that read, as gzip level 6 does.
types = re.search(r"\n    gzip_types ([^;]+);", conf).group(1)
brotli = "\n    ".join(["brotli_static on;", "brotli on;", "brotli_comp_level 6;", f"brotli_types {types};"])
values = {"@LISTEN@": a.listen, "@DIST@": a.root or os.path.abspath(a.dist), "@API@": api, "@FRAME_ANCESTORS@": a.frame_ancestors, "@SCRIPT_HASHES@": hashes,
          "@RENDERS@": os.path.abspath(a.renders).rstrip("/"),
          "@UI@": (a.ui or api).rstrip("/"), "@PLUGIN@": a.plugin_root or os.path.join(here, "plugin"),
          "@BROTLI@": brotli if a.brotli else "# brotli: not enabled (render with --brotli where the modules are loaded)"}
for k, v in values.items():
    conf = conf.replace(k, v)
if a.no_compression:
    conf = re.sub(r"\n    (gzip|brotli)[^\n]*", "", conf) + "\n# compression disabled by --no-compression\n"
if a.out == "-":
    sys.stdout.write(conf)
else:
    open(a.out, "w", encoding="utf-8").write(conf)
