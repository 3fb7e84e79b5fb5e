#!/usr/bin/env python3
"""Every command the README, docs/ and deploy/ show, checked against what it names (#68).

A command a reader copies must work: a make target must exist, a file or folder it names must be
there, a port-forward must name a port its Service has, a flag must be one the binary takes, an
image a kustomization edit sets must be the one the kit parameterises, an identity a `cosign
verify` pins must be the one the kit's source pins. Commands that need a cluster, a registry or
GitHub are checked this way, not run; the ones that can run here are run by their own tests
(`make` targets by make test, the CI jobs' install step by scripts/release-test.sh, the kit by
scripts/kit-flux-test.sh, the image by scripts/image-test.sh). A command of a shape this script
does not know fails it: a new kind of command gets a check before it is documented.

  scripts/doc-commands.py [--fluxlens-check PATH]
"""

import argparse
import glob
import re
import shlex
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
# The Flux Operator's web Service: its chart's `flux-operator` Service serves the UI and the API on
# 9080 (the API reference the app is built from; the simulator serves the same paths).
OPERATOR_PORT = 9080
# Other tools' own commands, named for the reader and not fluxlens's to check beyond their shape.
EXTERNAL = [
    r"flux (migrate|events --for \S+|debug \S+|build kustomization|plugin install lens(@[0-9.]+)?|push artifact)\b.*",
    r"flux-local build\b.*", r"kustomize build\b.*", r"kubectl edit\b.*", r"node --test\b.*",
    r"rustup toolchain install nightly --profile minimal", r"cargo install cargo-fuzz --locked",
    r"flux lens <TAB>",
    r"cargo fmt --check",
    r"rustup update stable", r"cargo update -p [\w-]+",
]


def sources():
    files = ["README.md", *sorted(glob.glob("docs/*.md")), *sorted(glob.glob("deploy/**/*.md", recursive=True))]
    manifests = sorted(glob.glob("deploy/**/*.yaml", recursive=True)) + ["deploy/Dockerfile"]
    return files, manifests


def commands():
    """(file, command) for each command in a shell block, an inline code span that starts with a
    command, or a manifest's comment; continued lines are joined."""
    files, manifests = sources()
    found = []
    start = r"(?:make|kubectl|flux|fluxlens-check|flux-lens|cargo|kustomize|docker|cosign|python3|node|rustup|cd) "
    for f in files:
        text = (ROOT / f).read_text()
        for block in re.findall(r"```(?:sh|bash|shell)\n(.*?)```", text, re.S):
            for line in block.replace("\\\n", " ").splitlines():
                if line.strip():
                    found.append((f, line.strip()))
        for span in re.findall(r"`(" + start + r"[^`]*)`", text):
            found.append((f, " ".join(span.split())))
    for f in manifests:
        text = (ROOT / f).read_text()
        joined = re.sub(r"\\\n\s*#\s*", " ", text)
        for line in joined.splitlines():
            m = re.match(r"\s*#\s+(" + start + r".*)", line)
            if m:
                found.append((f, m.group(1).split(" — ")[0].strip()))
        for span in re.findall(r"`(" + start + r"[^`]*)`", text):
            found.append((f, " ".join(span.split())))
    return found


def make_targets():
    return set(re.findall(r"^([a-z][a-z0-9-]*):", (ROOT / "Makefile").read_text(), re.M))


def service_ports():
    ports = {"flux-operator": {OPERATOR_PORT}}
    for f in glob.glob(str(ROOT / "deploy/**/*.yaml"), recursive=True):
        for d in yaml.safe_load_all(Path(f).read_text()):
            if isinstance(d, dict) and d.get("kind") == "Service":
                ports.setdefault(d["metadata"]["name"], set()).update(p["port"] for p in d["spec"]["ports"])
    return ports


def split_commands(line):
    """The commands of one shell line: split at `&&`, `;` and a spaced `|`, outside quotes and
    `$(…)` (a `ks|hr` alternative stays one word)."""
    parts, cur, quote, depth, i = [], "", None, 0, 0
    while i < len(line):
        c = line[i]
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif line.startswith("$(", i):
            depth += 1
        elif c == ")" and depth:
            depth -= 1
        elif depth == 0 and (line.startswith("&&", i) or c == ";" or line.startswith(" | ", i)):
            parts.append(cur)
            cur, i = "", i + (2 if c in "&" else 1)
            continue
        cur += c
        i += 1
    return parts + [cur]


class Checker:
    def __init__(self, check_bin):
        self.targets = make_targets()
        self.ports = service_ports()
        help_text = subprocess.run([check_bin, "--help"], capture_output=True, text=True).stdout
        self.flags = set(re.findall(r"--[a-z][a-z-]*", help_text))
        assert self.flags, f"{check_bin} --help lists no flags"

    def path(self, p):
        assert (ROOT / p).exists(), f"names {p}, which does not exist"

    def check(self, cmd):
        """Raises AssertionError with why, or returns what was checked."""
        for part in split_commands(cmd.split("   #")[0].split("  #")[0]):
            self.part(part.strip())

    def part(self, cmd):
        if not cmd or cmd.startswith("#"):
            return
        if any(re.fullmatch(x, cmd) for x in EXTERNAL):
            return
        for p in re.findall(r"(?<![\w/.-])((?:scripts|deploy|crates|docs|e2e|fuzz)/[\w./-]*\w)", cmd):
            self.path(p)
        words = shlex.split(cmd.replace("…", "X"), posix=True) if "'" in cmd or '"' in cmd else cmd.split()
        head = words[0]
        if head == "make":
            for w in words[1:]:
                if "=" not in w:
                    assert w in self.targets, f"make has no target {w}"
            return
        if head == "cd":
            return self.path(words[1])
        if head in ("fluxlens-check", "./fluxlens-check", "flux-lens") or words[:3] in (["flux", "lens", "check"], ["flux", "lens", "drift"]):
            for w in words:
                flag = w.split("=")[0]
                if flag.startswith("--"):
                    assert flag in self.flags, f"fluxlens-check takes no {flag}"
            return
        if head == "kubectl":
            return self.kubectl(words)
        if head == "kustomize":
            return self.kustomize_edit(words)
        if head == "docker":
            return self.docker(words)
        if head == "cosign":
            return self.cosign(cmd)
        if head == "cargo":
            return self.cargo(words)
        if head == "python3":
            return
        raise AssertionError("a command of a shape nothing checks")

    def kubectl(self, w):
        if "port-forward" in w:
            svc = next((x for x in w if x.startswith("svc/")), None)
            if svc is None:
                return  # prose ("kubectl port-forward"), no target named
            local, remote = next(x for x in w if re.fullmatch(r"\d+:\d+", x)).split(":")
            name = svc[4:]
            assert name in self.ports, f"no Service {name} in deploy/"
            assert int(remote) in self.ports[name], f"Service {name} has no port {remote} (it has {sorted(self.ports[name])})"
            return
        if "apply" in w and "-k" in w:
            d = w[w.index("-k") + 1]
            return self.path(f"{d}/kustomization.yaml")
        if "apply" in w and "-f" in w:
            for i, x in enumerate(w):
                if x == "-f":
                    self.path(w[i + 1])
            return
        if w[1:2] == ["apply"]:
            return  # prose
        if "create" in w and "secret" in w:
            name = w[w.index("generic") + 1]
            refs = (ROOT / "deploy/kubernetes/oauth2-proxy.yaml").read_text()
            assert f"name: {name}" in refs, f"no manifest reads the secret {name}"
            return
        if w[1:] in (["port-forward"], ["edit"]):
            return
        raise AssertionError("a kubectl command nothing checks")

    def kustomize_edit(self, w):
        assert w[1:4] == ["edit", "set", "image"], "a kustomize command nothing checks"
        name = w[4].split("=")[0]
        k = yaml.safe_load((ROOT / "deploy/kubernetes/kustomization.yaml").read_text())
        assert any(i["name"] == name for i in k.get("images", [])), f"the kustomization has no image {name}"

    def docker(self, w):
        if w[1] == "build":
            return self.path(w[w.index("-f") + 1])
        if w[1] == "run":
            entry = (ROOT / "deploy/docker-entrypoint.sh").read_text()
            for i, x in enumerate(w):
                if x == "-e":
                    var = w[i + 1].split("=")[0]
                    assert var in entry, f"the entrypoint reads no {var}"
                if x == "-p":
                    assert w[i + 1].split(":")[1] == "8080", "the image listens on 8080 (FLUXLENS_LISTEN)"
            return
        raise AssertionError("a docker command nothing checks")

    def cosign(self, cmd):
        src = yaml.safe_load((ROOT / "deploy/flux/kit-source.yaml").read_text())
        ident = src["spec"]["verify"]["matchOIDCIdentity"][0]
        if " verify " in f" {cmd} ":
            rx = re.search(r"--certificate-identity-regexp '([^']+)'", cmd).group(1)
            issuer = re.search(r"--certificate-oidc-issuer (\S+)", cmd).group(1)
            assert rx == ident["subject"], f"cosign verify pins {rx}, the kit's source {ident['subject']}"
            assert re.fullmatch(ident["issuer"], issuer), f"cosign verify's issuer {issuer}"
            return
        assert cmd.startswith("cosign sign"), "a cosign command nothing checks"

    def cargo(self, w):
        if w[1] == "install":
            return self.path(w[w.index("--path") + 1])
        if w[1:3] == ["fuzz", "run"] or w[1:4] == ["+nightly", "fuzz", "run"]:
            target = w[w.index("run") + 1] if w[w.index("run") + 1] != "-O" else w[w.index("run") + 2]
            assert f'name = "{target}"' in (ROOT / "fuzz/Cargo.toml").read_text(), f"no fuzz target {target}"
            return
        raise AssertionError("a cargo command nothing checks")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fluxlens-check", default=str(ROOT / "target/debug/fluxlens-check"))
    a = ap.parse_args()
    checker = Checker(a.fluxlens_check)
    wrong, seen = [], 0
    for f, cmd in commands():
        seen += 1
        try:
            checker.check(cmd)
        except (AssertionError, IndexError, StopIteration, ValueError, AttributeError) as e:
            wrong.append(f"{f}: `{cmd}`: {e or type(e).__name__}")
    # The check must be able to fail: a port the Service lacks, a target make lacks.
    for bad in ["kubectl port-forward -n flux-system svc/fluxlens 8080:80", "make nothing-here"]:
        try:
            checker.check(bad)
        except AssertionError:
            continue
        sys.exit(f"doc-commands: `{bad}` passed")
    if wrong:
        sys.exit("doc-commands: commands that would not work as written:\n  " + "\n  ".join(wrong))
    print(f"doc-commands: {seen} commands in README.md, docs/ and deploy/ checked against what they name")


if __name__ == "__main__":
    main()
