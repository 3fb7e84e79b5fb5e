#!/usr/bin/env python3
"""Regenerates crates/fluxlens-core/data/flux-digests.json from the Flux Operator's image
catalog, config/data/flux-images/<version>/<variant>.yaml in a checkout of
controlplaneio-fluxcd/flux-operator. Each entry records the file and the commit it came from.

  python3 scripts/flux-digests.py <flux-operator checkout> [v2.9.4 v2.8.8 v2.7.5]
  (default: the latest patch of each of the three newest minors found in the checkout)

--commits FILE maps each file path to its commit where the checkout has no git history."""
import json, os, re, subprocess, sys, datetime

VARIANTS = ["upstream-alpine", "enterprise-alpine", "enterprise-distroless", "enterprise-distroless-fips"]
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates", "fluxlens-core", "data", "flux-digests.json")

def parse(text):
    """The three keys of each image in the catalog's YAML list (no YAML library needed)."""
    images, cur = [], None
    for line in text.splitlines():
        m = re.match(r"\s*-\s*name:\s*(\S+)", line)
        if m:
            cur = {"name": m.group(1)}
            images.append(cur)
            continue
        m = re.match(r"\s*(newTag|digest):\s*(\S+)", line)
        if m and cur is not None:
            cur[m.group(1)] = m.group(2)
    return [i for i in images if {"name", "newTag", "digest"} <= i.keys()]

def latest_patches(root, n=3):
    vs = []
    for v in os.listdir(os.path.join(root, "config/data/flux-images")):
        m = re.fullmatch(r"v(\d+)\.(\d+)\.(\d+)", v)
        if m:
            vs.append(tuple(int(x) for x in m.groups()))
    best = {}
    for v in vs:
        best[v[:2]] = max(best.get(v[:2], v), v)
    return ["v%d.%d.%d" % best[k] for k in sorted(best)[-n:]]

def main(argv):
    commits = {}
    if "--commits" in argv:
        i = argv.index("--commits")
        commits = json.load(open(argv[i + 1]))
        del argv[i:i + 2]
    if not argv:
        sys.exit(__doc__)
    root, versions = argv[0], argv[1:] or latest_patches(argv[0])
    entries = []
    for version in versions:
        for variant in VARIANTS:
            path = f"config/data/flux-images/{version}/{variant}.yaml"
            full = os.path.join(root, path)
            if not os.path.exists(full):
                continue
            commit = commits.get(path) or subprocess.run(
                ["git", "-C", root, "log", "-1", "--format=%H", "--", path],
                capture_output=True, text=True).stdout.strip()
            for img in parse(open(full).read()):
                entries.append({"version": version.lstrip("v"), "variant": variant,
                                "component": img["name"].rsplit("/", 1)[1], "tag": img["newTag"],
                                "digest": img["digest"], "source_path": path, "source_commit": commit})
    doc = {"source": "controlplaneio-fluxcd/flux-operator config/data/flux-images/<version>/<variant>.yaml (per entry: source_path, source_commit); regenerate with scripts/flux-digests.py",
           "date": datetime.date.today().isoformat(), "entries": entries}
    # One entry per line, compact: the file is embedded in the wasm bundle.
    with open(OUT, "w") as f:
        f.write("{\"source\":%s,\"date\":%s,\"entries\":[\n" % (json.dumps(doc["source"]), json.dumps(doc["date"])))
        f.write(",\n".join(json.dumps(e, separators=(",", ":")) for e in entries))
        f.write("\n]}\n")
    print(f"{len(entries)} digests for {', '.join(versions)} -> {os.path.relpath(OUT)}")

if __name__ == "__main__":
    main(sys.argv[1:])
