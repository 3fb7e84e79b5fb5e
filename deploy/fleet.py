"""The fleet file, read and turned into nginx locations (used by render.py --fleet).

A fleet file (YAML or JSON):

    clusters:
      - name: prod-eu                      # a DNS label: the path /clusters/prod-eu/
        url: http://10.0.1.20:9080         # that cluster's Flux Operator web server (hub only)
        labels: {env: prod, region: eu, wave: "2"}
        timeout: 30                        # seconds to wait for an answer (default 30)
        ui: https://flux.prod-eu.example   # optional: its own UI, published on the page
        render: /renders/prod-eu.yaml      # optional: the render it should run, served by the hub
        revision: main@sha1:0a1b2c3d4e5f   # optional: the commit that render was made from

Everything is checked before anything is written: a value that could change the nginx
config, a name that cannot be a path, a label that is not a Kubernetes label, an upstream
with user-info or a query is refused with the reason. `url` never leaves the config.
"""
import json, re, sys

# The reads the app makes, each with its one method (fluxlens_core::wire::ALLOWED_ENDPOINTS;
# the simulator's deploy_kit test pins the two lists together).
READS = [("GET", "/api/v1/report"), ("GET", "/api/v1/resources"), ("GET", "/api/v1/resource"),
         ("GET", "/api/v1/events"), ("GET", "/api/v1/search"), ("POST", "/api/v1/inventory/objects")]

NAME = re.compile(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")
LABEL_KEY = re.compile(r"^([a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$")
LABEL_VALUE = re.compile(r"^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$")
UPSTREAM = re.compile(r"^https?://[A-Za-z0-9.\-\[\]:]+(:[0-9]{1,5})?(/[A-Za-z0-9._~\-/]*)?$")
RENDER = re.compile(r"^/renders/[A-Za-z0-9._\-][A-Za-z0-9._\-/]*$")
REVISION = re.compile(r"^([A-Za-z0-9._\-/]+@)?(sha1:)?[0-9a-f]{7,40}$")
PUBLIC = re.compile(r"^https?://[A-Za-z0-9.\-\[\]:]+(:[0-9]{1,5})?(/[A-Za-z0-9._~\-/%?=&#]*)?$")


def fail(msg):
    sys.exit(f"render.py --fleet: {msg}")


def parse(text, path):
    if path.endswith(".json") or text.lstrip().startswith("{"):
        try:
            return json.loads(text)
        except ValueError as e:
            fail(f"{path} is not valid JSON: {e}")
    try:
        import yaml
    except ImportError:
        fail(f"{path} is YAML and PyYAML is not installed (apt install python3-yaml), or give the fleet as JSON")
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        fail(f"{path} is not valid YAML: {e}")


def read(path):
    """The clusters of a fleet file, checked; the text may also come from FLUXLENS_FLEET (path '-')."""
    text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    doc = parse(text, path)
    items = doc.get("clusters") if isinstance(doc, dict) else None
    if not isinstance(items, list) or not items:
        fail(f"{path} has no 'clusters' list")
    seen, out = set(), []
    for i, c in enumerate(items):
        where = f"clusters[{i}]"
        if not isinstance(c, dict):
            fail(f"{where} is not a mapping")
        name = str(c.get("name", ""))
        if not NAME.match(name):
            fail(f"{where}: name {name!r} is not a DNS label (a-z, 0-9, -; at most 63)")
        if name in seen:
            fail(f"{where}: {name} is listed twice")
        seen.add(name)
        url = str(c.get("url", "")).rstrip("/")
        if not UPSTREAM.match(url):
            fail(f"{name}: url must be http(s)://host[:port][/path], without user-info, query or spaces")
        labels = c.get("labels") or {}
        if not isinstance(labels, dict):
            fail(f"{name}: labels must be a mapping")
        clean = {}
        for k, v in labels.items():
            k, v = str(k), ("true" if v is True else "false" if v is False else str(v))
            if not LABEL_KEY.match(k) or not LABEL_VALUE.match(v):
                fail(f"{name}: label {k}={v!r} is not a Kubernetes label (keys and values of A-Z a-z 0-9 - _ .)")
            clean[k] = v
        timeout = c.get("timeout", 30)
        if not isinstance(timeout, int) or not 1 <= timeout <= 300:
            fail(f"{name}: timeout must be a number of seconds, 1 to 300")
        ui = c.get("ui")
        if ui is not None and not PUBLIC.match(str(ui)):
            fail(f"{name}: ui must be a plain http(s) address")
        render, revision = c.get("render"), c.get("revision")
        if render is not None and (not RENDER.match(str(render)) or ".." in str(render)):
            fail(f"{name}: render must be a file under /renders/ (the hub serves that folder), e.g. /renders/{name}.yaml")
        if revision is not None and not REVISION.match(str(revision)):
            fail(f"{name}: revision must be a commit (SHA, or BRANCH@sha1:SHA)")
        out.append({"name": name, "url": url, "labels": clean, "timeout": timeout, "ui": ui,
                    "render": render, "revision": revision})
    return out


def clusters_json(clusters):
    """What /clusters.json answers: names, labels, published UI links and renders only."""
    published = ("name", "labels", "ui", "render", "revision")
    listed = [{k: c[k] for k in published if c[k] is not None} for c in clusters]
    text = json.dumps({"clusters": listed}, separators=(",", ":"), sort_keys=True)
    # Checked values cannot hold these; a quoted nginx string must never see them.
    assert not any(ch in text for ch in "'\\$\n"), text
    return text


def locations(clusters):
    """One block per cluster: its reads forwarded, everything else refused."""
    blocks = []
    for c in clusters:
        name, url, t = c["name"], c["url"], c["timeout"]
        common = (f"        proxy_http_version 1.1;\n"
                  f"        proxy_set_header Host $proxy_host;\n"
                  # The hub's own sign-in (oauth2-proxy's cookie, a bearer) never reaches a cluster.
                  f"        proxy_set_header Cookie \"\";\n"
                  f"        proxy_set_header Authorization \"\";\n"
                  # A cluster's cookies live under its own path: sessions never collide.
                  f"        proxy_cookie_path / /clusters/{name}/;\n"
                  f"        proxy_connect_timeout 5s;\n"
                  f"        proxy_read_timeout {t}s;\n"
                  f"        proxy_send_timeout {t}s;\n")
        lines = [f"    # cluster {name}"]
        for method, path in READS:
            lines.append(f"    location = /clusters/{name}{path} {{\n"
                         f"        limit_except {method} {{ deny all; }}\n"
                         f"        proxy_pass {url}{path};\n{common}    }}")
        lines.append(f"    location ^~ /clusters/{name}/api/ {{\n"
                     f"        default_type text/plain;\n"
                     f"        return 403 \"fluxlens forwards only the read endpoints it calls\\n\";\n    }}")
        blocks.append("\n".join(lines))
    return "\n".join(blocks) + "\n"
