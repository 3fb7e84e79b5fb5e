#!/usr/bin/env python3
"""Renders deploy/nginx/fluxlens.conf.template for a built app.

usage: render.py --dist DIR --api URL [--listen 8080] [--frame-ancestors "'self' https://x"] [--out FILE]
Computes the CSP hashes of the inline scripts in DIST/index.html, so the policy needs no
'unsafe-inline' for scripts.
"""
import argparse, base64, hashlib, os, re, sys

here = os.path.dirname(os.path.abspath(__file__))
p = argparse.ArgumentParser()
p.add_argument("--dist", required=True)
p.add_argument("--api", required=True)
p.add_argument("--listen", default="8080")
p.add_argument("--frame-ancestors", default="'self'")
p.add_argument("--out", default="-")
p.add_argument("--subpath", action="store_true", help="serve under /fluxlens/ next to the operator UI, with the launcher plugin")
p.add_argument("--ui", help="with --subpath: the operator UI page to proxy at / (default: the API upstream)")
a = p.parse_args()

html = open(os.path.join(a.dist, "index.html"), encoding="utf-8").read()
scripts = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", html, flags=re.S)
hashes = " ".join("'sha256-%s'" % base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() for s in scripts)
for name, value in [("frame-ancestors", a.frame_ancestors)]:
    if any(c in value for c in ";\n{}"):
        sys.exit(f"render.py: --{name} must not contain ; newline or braces")
template = "fluxlens-subpath.conf.template" if a.subpath else "fluxlens.conf.template"
conf = open(os.path.join(here, "nginx", template), encoding="utf-8").read()
values = {"@LISTEN@": a.listen, "@DIST@": os.path.abspath(a.dist), "@API@": a.api.rstrip("/"), "@FRAME_ANCESTORS@": a.frame_ancestors, "@SCRIPT_HASHES@": hashes,
          "@UI@": (a.ui or a.api).rstrip("/"), "@PLUGIN@": os.path.join(here, "plugin")}
for k, v in values.items():
    conf = conf.replace(k, v)
if a.out == "-":
    sys.stdout.write(conf)
else:
    open(a.out, "w", encoding="utf-8").write(conf)
