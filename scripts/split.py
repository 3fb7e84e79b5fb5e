#!/usr/bin/env python3
"""The wasm side of the release build (scripts/build.py): the app's module cut at its source-level
split points, bound, optimised and minified, every file under one folder named for this build.

  1. wasm-split-cli (wasm_split_cli_support, pinned in scripts/setup.sh) cuts cargo's module at
     the `#[wasm_split]` points in the sources (src/pages/split.rs: one per page but the
     overview; src/chunks.rs: code the first view never runs, such as the snapshot codec). It
     writes the main module, one module per split point and per piece of code several of them
     share, and their loader `__wasm_split.js`. It needs the linker's relocations, hence
     `--emit-relocs` in .cargo/config.toml.
  2. wasm-bindgen binds the main module (`--target web`). `--keep-lld-exports` keeps the
     function table exported: the split modules call into the main module through it.
  3. wasm-opt -Oz optimizes each module once (two at a time: this machine's two cores).
  4. esbuild minifies each JS module (scripts/minify.py), imports and exports untouched.
  5. Every file goes under `fluxlens-<hash>/`, the hash of all their bytes: the modules find
     each other by relative URLs, so no generated file is edited to rename anything, and a
     deploy that changes any byte changes the folder (the kit keeps it a year, immutable).

Nothing here edits a tool's output: the files are written as the tools wrote them.
"""
import concurrent.futures, hashlib, os, shutil, subprocess, sys, tempfile
from typing import NamedTuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import minify  # noqa: E402

APP = "fluxlens"


class Built(NamedTuple):
    """A build's folder (`fluxlens-<hash>`), the JS modules the page imports at start (its own
    script first) and the main wasm module, each by its path inside the folder."""
    folder: str
    scripts: list
    wasm: str


def build(source, out):
    """Writes the app built from cargo's `source` module into `out/fluxlens-<hash>/`."""
    with tempfile.TemporaryDirectory(prefix="fluxlens-split-") as tmp:
        app = os.path.join(tmp, "app")
        cut = os.path.join(tmp, "cut")
        run(["wasm-split-cli", source, cut, "--target", "web", "--out-name", APP])
        run(["wasm-bindgen", "--target", "web", "--no-typescript", "--keep-lld-exports",
             "--out-dir", app, "--out-name", APP, os.path.join(cut, APP + ".wasm")])
        for name in os.listdir(cut):
            if name != APP + ".wasm":
                shutil.copy(os.path.join(cut, name), os.path.join(app, name))
        files = sorted(os.path.relpath(os.path.join(d, f), app) for d, _, fs in os.walk(app) for f in fs)
        optimize([os.path.join(app, f) for f in files if f.endswith(".wasm")])
        for f in files:
            if f.endswith(".js"):
                path = os.path.join(app, f)
                write_text(path, minify.minify(read_text(path), "js"))
        folder = f"{APP}-{folder_hash(app, files)}"
        shutil.copytree(app, os.path.join(out, folder))
    # The bindings first (the page's script imports them); they import the loader and the
    # snippets, so every JS module is needed at start.
    scripts = [APP + ".js"] + [f for f in files if f.endswith(".js") and f != APP + ".js"]
    print(f"split: {folder}: {sum(f.endswith('.wasm') for f in files)} wasm modules, {len(scripts)} JS modules")
    return Built(folder, scripts, APP + "_bg.wasm")


def optimize(modules):
    def one(m):
        run(["wasm-opt", "-Oz", m, "-o", m])
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(one, modules))


def folder_hash(root, files):
    h = hashlib.sha256()
    for f in files:
        data = read_bytes(os.path.join(root, f))
        h.update(f.encode() + b"\0" + len(data).to_bytes(8, "little") + data)
    return h.hexdigest()[:16]


def run(cmd):
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"split: {' '.join(cmd)} failed:\n{done.stdout}{done.stderr}")


def read_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def write_text(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
