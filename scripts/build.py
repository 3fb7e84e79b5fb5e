#!/usr/bin/env python3
"""The release build of the app: cargo → scripts/split.py (split, bind, optimise, minify, name)
→ the page → precompression. Writes dist/ (the app at /) and dist-fluxlens/ (the same files, its
page pointing under /fluxlens/). Trunk only serves in development (`make dev`: a debug build).

The page is index.html with its `data-trunk` links done as Trunk does them:
  rel="inline"     a script or stylesheet written into the page, minified (no request of its own);
  rel="rust"       the app's module script, and a preload of every module it starts with, first
                   in the head, so that those requests go out before the page is read further;
  rel="copy-file"  copied beside the page, the tag dropped.

Up to date, it builds nothing: what went into dist/ (every input file's bytes, the tools'
versions, the options) is hashed into dist/.build-inputs, and an equal hash skips the build.

  scripts/build.py                # dist/ and dist-fluxlens/
"""
import argparse, hashlib, os, re, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import minify  # noqa: E402
import precompress  # noqa: E402
import split  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAMP = ".build-inputs"
# What the app's bytes are made of (tracked and untracked files under these paths).
INPUTS = ["index.html", "src", "crates/fluxlens-core", "style", "deploy/plugin", "docs/rules.html",
          "Cargo.toml", "Cargo.lock", ".cargo/config.toml", "scripts/build.py", "scripts/split.py",
          "scripts/precompress.py", "scripts/minify.py", "scripts/minify.mjs"]
SUBPATH = "/fluxlens/"
# Sent once the app's module has started (the bench reads the module's memory from it).
STARTED_EVENT = "fluxlens:wasm-started"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dist", default="dist")
    ap.add_argument("--subpath-dist", default="dist-fluxlens", help=f"the app served under {SUBPATH}")
    args = ap.parse_args()
    os.chdir(ROOT)
    dists = [args.dist, args.subpath_dist]
    inputs = inputs_hash(args)
    if all(read_stamp(d) == inputs for d in dists):
        print(f"build: {', '.join(dists)} up to date")
        return
    run(["cargo", "build", "--release", "--target", "wasm32-unknown-unknown", "-p", "fluxlens",
         "--bin", "fluxlens", "--features", "split"])
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    source = os.path.join(target, "wasm32-unknown-unknown", "release", "fluxlens.wasm")
    template = read_text("index.html")
    with tempfile.TemporaryDirectory(prefix="fluxlens-build-", dir=ROOT) as staging:
        app = os.path.join(staging, "app")
        os.mkdir(app)
        built = split.build(source, app)
        copy_files(template, app)
        # Compressed once for both folders; only each page apart.
        precompress.main([app])
        for dist in dists:
            out = os.path.join(staging, os.path.basename(dist))
            shutil.copytree(app, out)
            public = "/" if dist == args.dist else SUBPATH
            split.write_text(os.path.join(out, "index.html"), page(template, built, public))
            precompress.compress(os.path.join(out, "index.html"))
            split.write_text(os.path.join(out, STAMP), inputs)
            shutil.rmtree(dist, ignore_errors=True)
            shutil.move(out, dist)
    print(f"build: {', '.join(dists)} written ({built.folder})")


def page(template, built, public):
    """index.html for the app served at `public`, its `data-trunk` links done."""
    html = re.sub(r"[ \t]*<link data-trunk ([^>]*)>\n?", lambda m: link(m.group(1), built, public), template)
    if public != "/":
        html = must_replace(html, "<head>", f'<head>\n  <meta name="fluxlens-base" content="{public.rstrip("/")}">')
    base = f"{public}{built.folder}/"
    preloads = [f'<link rel="modulepreload" href="{base}{js}">' for js in built.scripts]
    # As the bindings fetch it (`fetch(url)`: same origin, CORS mode), so the preload is taken.
    preloads.append(f'<link rel="preload" href="{base}{built.wasm}" as="fetch" type="application/wasm" crossorigin>')
    # Where the files beside the page are (rules.html), for the app (src/base.rs `asset`).
    preloads.append(f'<meta name="fluxlens-assets" content="{public}">')
    charset = '<meta charset="utf-8">'
    return must_replace(html, charset, charset + "\n  " + "\n  ".join(preloads))


def link(attrs, built, public):
    rel, href = attr(attrs, "rel"), attr(attrs, "href")
    if rel == "rust":
        # The bindings fetch the wasm beside them (their own `import.meta.url`).
        return (f'  <script type="module">import init from "{public}{built.folder}/{built.scripts[0]}";\n'
                f'const wasm = await init();\n'
                f'dispatchEvent(new CustomEvent("{STARTED_EVENT}", {{ detail: {{ wasm }} }}));</script>\n')
    if rel == "copy-file":
        return ""
    if rel == "inline" and href.endswith(".js"):
        return f"  <script>{minify.minify(read_text(href), 'js').strip()}</script>\n"
    if rel == "inline" and href.endswith(".css"):
        return f"  <style>{minify.minify(read_text(href), 'css').strip()}</style>\n"
    sys.exit(f"build: {href}: a data-trunk link this build does not do (rel={rel})")


def copy_files(template, out):
    """Copies the `copy-file` links' files beside the page."""
    for attrs in re.findall(r"<link data-trunk ([^>]*)>", template):
        if attr(attrs, "rel") == "copy-file":
            href = attr(attrs, "href")
            shutil.copy(href, os.path.join(out, os.path.basename(href)))


def inputs_hash(args):
    """What the build's output is made of: the input files' paths and bytes, the tools'
    versions and the options."""
    h = hashlib.sha256()
    for path in input_files(INPUTS):
        h.update(path.encode() + b"\0")
        with open(path, "rb") as f:
            h.update(f.read())
    for tool in (["wasm-bindgen", "--version"], ["wasm-opt", "--version"], ["rustc", "--version"],
                 ["cargo", "install", "--list"], minify.VERSION):
        h.update(subprocess.run(tool, capture_output=True, text=True).stdout.encode())
    h.update(repr(vars(args)).encode())
    return h.hexdigest()


def input_files(paths):
    """The files under `paths` git tracks or would (a copy without .git: every file)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *paths],
                            capture_output=True)
    if listed.returncode == 0:
        files = [p.decode() for p in listed.stdout.split(b"\0") if p]
    else:
        files = [os.path.join(d, f) for p in paths for d, _, fs in os.walk(p) for f in fs] + [p for p in paths if os.path.isfile(p)]
    return sorted(p for p in set(files) if os.path.isfile(p))


def read_stamp(dist):
    path = os.path.join(dist, STAMP)
    return read_text(path) if os.path.isfile(path) and os.path.isfile(os.path.join(dist, "index.html")) else None


def attr(attrs, name):
    found = re.search(rf'{name}="([^"]*)"', attrs)
    return found.group(1) if found else ""


def must_replace(text, old, new):
    if old not in text:
        sys.exit(f"build: the page has no {old}")
    return text.replace(old, new, 1)


def read_text(path):
    return split.read_text(path)


def run(cmd):
    if subprocess.run(cmd).returncode != 0:
        sys.exit(f"build: {' '.join(cmd)} failed")


if __name__ == "__main__":
    main()
