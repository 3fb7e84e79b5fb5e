#!/usr/bin/env bash
# Tests `make release` as a Flux user meets it: builds the plugin release into a scratch folder
# twice (the archives must hash the same), checks the catalog manifest against the catalog's
# schema and the files (scripts/release.py --verify), runs each platform's flux-lens from its
# archive (arm64 under qemu-aarch64-static), and makes sure the verification refuses a broken
# manifest rather than passing anything.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
python3 scripts/release.py --out "$out/a" >/dev/null
python3 scripts/release.py --out "$out/b" >/dev/null
cmp -s "$out/a/checksums.txt" "$out/b/checksums.txt" || { echo "release: two builds of one tree differ"; exit 1; }
python3 scripts/release.py --verify "$out/a"
base=crates/fluxlens-check/tests/fixtures/base
for arch in amd64 arm64; do
  dir="$out/run-$arch"; mkdir -p "$dir"
  tar xzf "$out/a/"flux-lens_*_linux_"$arch".tar.gz -C "$dir"
  runner=()
  if [ "$arch" = arm64 ]; then
    if ! command -v qemu-aarch64-static >/dev/null; then
      echo "release: arm64 archive verified, its binary not run (no qemu-aarch64-static)"; continue
    fi
    runner=(qemu-aarch64-static)
  fi
  "${runner[@]}" "$dir/flux-lens" version | grep -q '^flux-lens ' || { echo "release: $arch flux-lens does not run"; exit 1; }
  set +e; "${runner[@]}" "$dir/flux-lens" check --format sarif "$base" >"$dir/out.sarif"; code=$?; set -e
  [ "$code" = 0 ] && grep -q '"version": "2.1.0"' "$dir/out.sarif" || { echo "release: $arch flux-lens check exited $code"; exit 1; }
  set +e; "${runner[@]}" "$dir/flux-lens" check /nowhere 2>/dev/null; code=$?; set -e
  [ "$code" = 2 ] || { echo "release: $arch flux-lens check of nothing exited $code, not 2"; exit 1; }
  echo "release: $arch flux-lens runs from its archive (version, check: exit 0, unreadable input: exit 2)"
done
# The verification must be able to fail: each broken copy of the manifest is refused.
python3 - "$out/a" <<'PY'
import copy, shutil, sys, pathlib, yaml
sys.path.insert(0, "scripts")
import release
good = pathlib.Path(sys.argv[1])
m = yaml.safe_load((good / release.MANIFEST).read_text())
def broken(edit):
    b = copy.deepcopy(m); edit(b); return b
cases = {
    "a checksum that is not the archive's": broken(lambda b: b["versions"][0]["platforms"][0].update(checksum="sha256:" + "0" * 64)),
    "a field the schema does not allow": broken(lambda b: b.update(maintainer="me")),
    "an http URL": broken(lambda b: b["versions"][0]["platforms"][1].update(url=b["versions"][0]["platforms"][1]["url"].replace("https", "http"))),
    "a version with a v": broken(lambda b: b["versions"][0].update(version="v" + b["versions"][0]["version"])),
    "an arch the catalog has no word for": broken(lambda b: b["versions"][0]["platforms"][0].update(arch="x86_64")),
    "a URL off the release tag": broken(lambda b: b["versions"][0]["platforms"][0].update(url=b["versions"][0]["platforms"][0]["url"].replace("/download/v", "/download/latest-v"))),
}
for why, bad in cases.items():
    d = good.parent / "broken"
    shutil.rmtree(d, ignore_errors=True); shutil.copytree(good, d)
    (d / release.MANIFEST).write_text(yaml.safe_dump(bad, sort_keys=False))
    if not release.verify(d):
        sys.exit(f"release: the verification passed {why}")
print(f"release: the verification refuses {len(cases)} broken manifests")
PY
# The CI jobs in docs/check.md install fluxlens-check from a release: their install step runs here,
# as written, against the release just built, served on 127.0.0.1 in place of the repository's
# release URL (which must be this workspace's repository and crate version); the binary it unpacks
# must run a check.
python3 - "$out" <<'PY'
import functools, http.server, re, subprocess, sys, threading, tomllib, yaml
from pathlib import Path
out = Path(sys.argv[1])
ws = tomllib.loads(Path("Cargo.toml").read_text())["workspace"]["package"]
version = tomllib.loads(Path("crates/fluxlens-check/Cargo.toml").read_text())["package"]["version"]
expected = f"{ws['repository']}/releases/download/v{version}"
blocks = re.findall(r"```yaml\n(.*?)```", Path("docs/check.md").read_text(), re.S)
steps = []
for b in blocks:
    doc = yaml.safe_load(b)
    jobs = doc.get("jobs", doc) if isinstance(doc, dict) else {}
    for job in jobs.values():
        steps += [s for s in job.get("steps", []) if s.get("name", "").startswith("fluxlens-check from the release")]
if len(steps) != 2:
    sys.exit(f"release: docs/check.md should install fluxlens-check from the release in both jobs, found {len(steps)}")
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a):
        pass
handler = functools.partial(Quiet, directory=str(out / "a"))
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
for i, step in enumerate(steps):
    if step["env"]["FLUXLENS"] != expected:
        sys.exit(f"release: docs/check.md downloads from {step['env']['FLUXLENS']}, not {expected}")
    work = out / f"ci-{i}"; work.mkdir()
    env = {"PATH": "/usr/bin:/bin", "FLUXLENS": f"http://127.0.0.1:{server.server_port}"}
    subprocess.run(["bash", "-euo", "pipefail", "-c", step["run"]], cwd=work, env=env, check=True, capture_output=True)
    r = subprocess.run([str(work / "fluxlens-check"), "--format", "sarif", str(Path("crates/fluxlens-check/tests/fixtures/base").resolve())], capture_output=True, text=True)
    if r.returncode != 0 or '"version": "2.1.0"' not in r.stdout:
        sys.exit(f"release: the CI job's fluxlens-check did not run a check (exit {r.returncode})")
server.shutdown()
print(f"release: both CI jobs of docs/check.md install fluxlens-check from the release as written, and it runs")
PY
