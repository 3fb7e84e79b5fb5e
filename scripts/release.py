#!/usr/bin/env python3
"""make release: the pre-merge check for Linux amd64 and arm64, as the Flux CLI plugin catalog
expects it (RFC-0013; fluxcd/plugins).

  scripts/release.py [--out DIR] [--tag vX.Y.Z]   build, archive, checksum, write the manifest
  scripts/release.py --verify DIR                 check a release folder as the tests do

Each archive `flux-lens_<version>_linux_<arch>.tar.gz` holds `flux-lens` (the plugin, run as
`flux lens`), `fluxlens-check`, LICENSE and README.md: static musl binaries, linked by Rust's own
lld, byte-for-byte reproducible (sorted entries, fixed times and owners). `checksums.txt` is in
`sha256sum` format. `flux-lens.plugin.yaml` is the catalog manifest (apiVersion
cli.fluxcd.io/v1beta1, kind Plugin), generated from the archives: their real SHA-256, URLs
templated on the release tag under the workspace's `repository`.
"""

import argparse
import gzip
import hashlib
import io
import os
import re
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Rust target → the catalog's arch (linux only: what is built and tested here).
TARGETS = {"x86_64-unknown-linux-musl": "amd64", "aarch64-unknown-linux-musl": "arm64"}
BINARIES = ["flux-lens", "fluxlens-check"]
EXTRAS = ["LICENSE", "README.md"]
MANIFEST = "flux-lens.plugin.yaml"
DESCRIPTION = "fluxlens pre-merge check: deadlocks, dangling references and unverified sources in a GitOps change"


def workspace():
    """The check's version and the workspace's repository URL, from the Cargo manifests."""
    ws = tomllib.loads((ROOT / "Cargo.toml").read_text())["workspace"]["package"]
    crate = tomllib.loads((ROOT / "crates/fluxlens-check/Cargo.toml").read_text())["package"]
    return crate["version"], ws["repository"].rstrip("/"), ws["homepage"]


def archive_name(version, arch):
    return f"flux-lens_{version}_linux_{arch}.tar.gz"


def build(target):
    """Builds both binaries for `target`; returns the folder they are in."""
    env = dict(os.environ)
    linker = f"CARGO_TARGET_{target.upper().replace('-', '_')}_LINKER"
    env[linker] = "rust-lld"
    # ring (rustls's crypto, for --live https://) has C and assembly: clang cross-compiles them
    # for both targets with no musl sysroot (ring's build.rs), llvm-ar archives them.
    env[f"CC_{target.replace('-', '_')}"] = "clang"
    env[f"AR_{target.replace('-', '_')}"] = "llvm-ar"
    env["CARGO_PROFILE_RELEASE_STRIP"] = "symbols"
    subprocess.run(
        ["cargo", "build", "--release", "--locked", "-q", "-p", "fluxlens-check", "--target", target],
        cwd=ROOT, env=env, check=True,
    )
    target_dir = Path(env.get("CARGO_TARGET_DIR", ROOT / "target"))
    return target_dir / target / "release"


def reproducible_tar_gz(members):
    """A .tar.gz of (name, bytes, mode): sorted, owner 0, time 0, so a rebuild hashes the same."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name, data, mode in sorted(members):
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(data), mode, 0
            info.uid = info.gid = 0
            info.uname = info.gname = "root"
            tar.addfile(info, io.BytesIO(data))
    out = io.BytesIO()
    with gzip.GzipFile(filename="", fileobj=out, mode="wb", mtime=0) as gz:
        gz.write(raw.getvalue())
    return out.getvalue()


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def manifest_text(version, tag, repo, homepage, checksums):
    """The catalog manifest, platforms in the order built."""
    import yaml  # python3-yaml, installed by scripts/setup.sh

    platforms = [
        {
            "os": "linux",
            "arch": arch,
            "url": f"{repo}/releases/download/{tag}/{archive_name(version, arch)}",
            "checksum": f"sha256:{checksums[archive_name(version, arch)]}",
        }
        for arch in TARGETS.values()
    ]
    manifest = {
        "apiVersion": "cli.fluxcd.io/v1beta1",
        "kind": "Plugin",
        "name": "lens",
        "description": DESCRIPTION,
        "homepage": homepage,
        "source": repo,
        "bin": "flux-lens",
        "versions": [{"version": version, "platforms": platforms}],
    }
    return yaml.safe_dump(manifest, sort_keys=False, width=200)


def release(out, tag):
    version, repo, homepage = workspace()
    tag = tag or f"v{version}"
    if tag.lstrip("v") != version:
        sys.exit(f"release: tag {tag} is not the check's version {version}")
    out.mkdir(parents=True, exist_ok=True)
    extras = [(name, (ROOT / name).read_bytes(), 0o644) for name in EXTRAS]
    checksums = {}
    for target, arch in TARGETS.items():
        bin_dir = build(target)
        members = extras + [(b, (bin_dir / b).read_bytes(), 0o755) for b in BINARIES]
        name = archive_name(version, arch)
        (out / name).write_bytes(reproducible_tar_gz(members))
        checksums[name] = sha256(out / name)
        print(f"release: {name} {checksums[name]}")
    (out / "checksums.txt").write_text("".join(f"{h}  {n}\n" for n, h in sorted(checksums.items())))
    (out / MANIFEST).write_text(manifest_text(version, tag, repo, homepage, checksums))
    problems = verify(out)
    if problems:
        sys.exit("release: " + "\n".join(problems))
    print(f"release: {out}/{MANIFEST} (tag {tag}) and checksums.txt")


# --- verification: the catalog's schema, and the manifest against the files ---------------
#
# The constraints of fluxcd/plugins `schemas/plugin-cli-v1beta1.json` (read at commit b8c6437,
# JSON Schema 2020-12), restated here rather than vendored: required fields, no other fields,
# the constant apiVersion and kind, name and bin patterns, https URLs, versions newest first
# without a leading v, platforms of os linux/darwin/windows and arch amd64/arm64, and checksums
# as `sha256:` and 64 lower-case hex digits.

PLUGIN_FIELDS = {"apiVersion", "kind", "name", "description", "homepage", "source", "bin", "versions"}
VERSION_FIELDS = {"version", "platforms"}
PLATFORM_FIELDS = {"os", "arch", "url", "checksum"}
IDENT = re.compile(r"^[a-z][a-z0-9-]*$")
SEMVER = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+(-.+)?$")
CHECKSUM = re.compile(r"^sha256:[a-f0-9]{64}$")


def schema_problems(m):
    """What the catalog's schema would refuse in manifest `m` (a parsed YAML mapping)."""
    p = []

    def fields(obj, allowed, where):
        if not isinstance(obj, dict):
            p.append(f"{where}: not a mapping")
            return False
        p.extend(f"{where}: {k} is missing" for k in sorted(allowed - obj.keys()))
        p.extend(f"{where}: {k} is not allowed" for k in sorted(obj.keys() - allowed))
        return True

    def https(value, where):
        if not (isinstance(value, str) and value.startswith("https://") and len(value) > 8):
            p.append(f"{where}: {value!r} is not an https URL")

    if not fields(m, PLUGIN_FIELDS, "plugin"):
        return p
    if m.get("apiVersion") != "cli.fluxcd.io/v1beta1":
        p.append("apiVersion must be cli.fluxcd.io/v1beta1")
    if m.get("kind") != "Plugin":
        p.append("kind must be Plugin")
    for key in ("name", "bin"):
        if not (isinstance(m.get(key), str) and IDENT.match(m[key])):
            p.append(f"{key}: {m.get(key)!r} does not match ^[a-z][a-z0-9-]*$")
    if not (isinstance(m.get("description"), str) and m["description"]):
        p.append("description is empty")
    https(m.get("homepage"), "homepage")
    https(m.get("source"), "source")
    versions = m.get("versions")
    if not (isinstance(versions, list) and versions):
        return p + ["versions: at least one is required"]
    for i, v in enumerate(versions):
        if not fields(v, VERSION_FIELDS, f"versions[{i}]"):
            continue
        if not (isinstance(v.get("version"), str) and SEMVER.match(v["version"])):
            p.append(f"versions[{i}].version: {v.get('version')!r} is not X.Y.Z without a v")
        platforms = v.get("platforms")
        if not (isinstance(platforms, list) and platforms):
            p.append(f"versions[{i}].platforms: at least one is required")
            continue
        for j, pl in enumerate(platforms):
            where = f"versions[{i}].platforms[{j}]"
            if not fields(pl, PLATFORM_FIELDS, where):
                continue
            if pl.get("os") not in ("darwin", "linux", "windows"):
                p.append(f"{where}.os: {pl.get('os')!r}")
            if pl.get("arch") not in ("amd64", "arm64"):
                p.append(f"{where}.arch: {pl.get('arch')!r}")
            https(pl.get("url"), f"{where}.url")
            if not (isinstance(pl.get("checksum"), str) and CHECKSUM.match(pl["checksum"])):
                p.append(f"{where}.checksum: {pl.get('checksum')!r}")
    return p


def verify(folder):
    """Everything wrong with a release folder: the schema, then each platform's archive (its
    checksum in the manifest and in checksums.txt, its URL on the tag, its binaries)."""
    import yaml  # python3-yaml, installed by scripts/setup.sh

    folder = Path(folder)
    m = yaml.safe_load((folder / MANIFEST).read_text())
    problems = schema_problems(m)
    if problems:
        return problems
    listed = {}
    for line in (folder / "checksums.txt").read_text().splitlines():
        digest, _, name = line.partition("  ")
        listed[name] = digest
    version, repo, _ = workspace()
    v = m["versions"][0]
    if v["version"] != version:
        problems.append(f"the manifest's newest version {v['version']} is not {version}")
    for pl in v["platforms"]:
        name = archive_name(v["version"], pl["arch"])
        path = folder / name
        if not path.is_file():
            problems.append(f"{name}: the manifest lists it and the release has no such file")
            continue
        real = sha256(path)
        if pl["checksum"] != f"sha256:{real}" or listed.get(name) != real:
            problems.append(f"{name}: checksum differs from the archive's ({real})")
        if not pl["url"].startswith(f"{repo}/releases/download/v{v['version']}/") or not pl["url"].endswith("/" + name):
            problems.append(f"{name}: url {pl['url']} is not on the release tag")
        with tarfile.open(path) as tar:
            names = set(tar.getnames())
            if m["bin"] not in names or not set(BINARIES + EXTRAS) <= names:
                problems.append(f"{name}: holds {sorted(names)}")
            elif not tar.getmember(m["bin"]).mode & 0o111:
                problems.append(f"{name}: {m['bin']} is not executable")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(ROOT / "release"))
    ap.add_argument("--tag")
    ap.add_argument("--verify", metavar="DIR")
    a = ap.parse_args()
    if a.verify:
        problems = verify(a.verify)
        if problems:
            sys.exit("release: " + "\n".join(problems))
        print(f"release: {a.verify} is a valid plugin release")
        return
    release(Path(a.out), a.tag)


if __name__ == "__main__":
    main()
