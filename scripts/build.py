#!/usr/bin/env python3
"""The release build of the app, each step once: cargo → split (scripts/split.py) → bind →
optimise → the page. Writes dist/ (the app at /) and dist-fluxlens/ (the same files, its page
pointing under /fluxlens/), both precompressed. Trunk only serves in development
(`make dev`: a debug build, no split, no wasm-opt).

The page is index.html with its `data-trunk` links done as Trunk would for a release:
  rel="inline"     a script or stylesheet, written into the page (no request of its own, #28);
  rel="css"        a stylesheet file named by its hash (the load bench's "before #28" page);
  rel="rust"       the app's module script, in its place, and a preload of the main JS and wasm
                   first in the head (the wasm is the cold visit's longest request, #51: its
                   request goes out before the inline styles and scripts are read);
  rel="copy-file"  copied beside the page, the tag dropped.

Up to date, it builds nothing: what went into dist/ (every input file's bytes, the tools'
versions, the options) is hashed into dist/.build-inputs, and an equal hash skips the build.

  scripts/build.py                       # dist/ and dist-fluxlens/
  scripts/build.py --one-module --html index.one-module.html --dist target/dist-one-module
  scripts/build.py --first-view-profile --dist target/first-view/dist   # scripts/first-view.mjs
"""
import argparse, base64, hashlib, html as html_lib, json, os, re, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inline_wasm  # noqa: E402
import minify  # noqa: E402
import precompress  # noqa: E402
import split  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAMP = ".build-inputs"
# What the app's bytes are made of (tracked and untracked files under these paths).
INPUTS = ["src", "crates/fluxlens-core", "style", "deploy/plugin", "docs/rules.html", "Cargo.toml",
          "Cargo.lock", ".cargo/config.toml", "scripts/build.py", "scripts/split.py",
          "scripts/eager_chunks.py",
          "scripts/cold.py", "scripts/wasmbin.py", "scripts/cold-functions.txt",
          "scripts/precompress.py", "scripts/minify.py", "scripts/inline_wasm.py", "scripts/minify.mjs",
          "scripts/short_imports.py", "scripts/first-view-fonts.json"]
SUBPATH = "/fluxlens/"
# The page's prefetch script, and its line that lists the files of the chunk a second visit's
# first view needs (scripts/eager_chunks.py): filled in here, empty in `make dev`'s build.
PREFETCH = "src/api/prefetch.js"
FIRST_CHUNKS_LINE = "var FIRST_CHUNKS = [];"
# The kept twin's compile of the main module, started by its head (`early_compile_js`).
EARLY_MAIN = "__fluxlensMainCompiled"
# The shipped module's panics name no source location (#51): every bounds check and unwrap the
# first view can reach kept a file path, line and column in the main module's data (−19 KB before
# compression, −5.2 KB with brotli; a panic still logs its message). The flag is unstable, hence
# RUSTC_BOOTSTRAP for this one build: it has kept its meaning since Rust 1.59, and tests, clippy
# and `make dev` build without it. Cargo joins the array to .cargo/config.toml's rustflags. The
# flags are part of every symbol's hash: `make first-view` builds with them too (this script).
RELEASE_FLAGS = ["--config", "target.wasm32-unknown-unknown.rustflags=['-Zlocation-detail=none']"]
RELEASE_ENV = {**os.environ, "RUSTC_BOOTSTRAP": "1"}
STARTED_EVENT = "fluxlens:wasm-started"
FONTS = "scripts/first-view-fonts.json"
# Every character a sample line holds besides the views' own beyond ASCII (scripts/first-view.mjs).
FONT_SAMPLE = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789 .,:;!?'\"()[]{}/\\-_=+*&%$#@<>|~^`"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--html", default="index.html")
    ap.add_argument("--dist", default="dist")
    ap.add_argument("--subpath-dist", default="dist-fluxlens", help=f"the app served under {SUBPATH}")
    ap.add_argument("--one-module", action="store_true", help="no split (the load bench's baseline)")
    ap.add_argument("--first-view-profile", action="store_true",
                    help="the main module whole, with its function names (scripts/first-view.mjs)")
    args = ap.parse_args()
    os.chdir(ROOT)
    one = args.one_module or args.first_view_profile
    dists = [args.dist] if one else [args.dist, args.subpath_dist]
    inputs = inputs_hash(args)
    if all(read_stamp(d) == inputs for d in dists):
        print(f"build: {', '.join(dists)} up to date")
        return
    features = [] if args.one_module else ["--features", "split"]
    run(["cargo", "build", "--release", "--target", "wasm32-unknown-unknown", "-p", "fluxlens",
         "--bin", "fluxlens", *features, *RELEASE_FLAGS], env=RELEASE_ENV)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    source = os.path.join(target, "wasm32-unknown-unknown", "release", "fluxlens.wasm")
    template = read_text(args.html)
    with tempfile.TemporaryDirectory(prefix="fluxlens-build-", dir=ROOT) as staging:
        app = os.path.join(staging, "app")
        os.mkdir(app)
        if args.one_module:
            built = split.Split(split.one_module(source, app), [])
        else:
            built = split.split_app(source, app, profile=args.first_view_profile)
        # The first view's page carries its main module (#51); the load bench's one-module
        # baseline and the profile's build fetch it as before.
        page = Page(template, built, carries_wasm=not one)
        page.copy_files(app)
        # Compressed once for both folders; only each page (and a stylesheet file) apart.
        precompress.main([app])
        for dist in dists:
            out = os.path.join(staging, os.path.basename(dist))
            shutil.copytree(app, out)
            public = "/" if dist == args.dist else SUBPATH
            for name in page.render(public, out):
                precompress.compress(os.path.join(out, name))
            split.write_text(os.path.join(out, STAMP), inputs)
            shutil.rmtree(dist, ignore_errors=True)
            shutil.move(out, dist)
    print(f"build: {', '.join(dists)} written ({built.stem})")


class Page:
    """index.html with its `data-trunk` links done (see the module's doc)."""

    def __init__(self, template, built, carries_wasm=False, kept_twin=False):
        self.template = template
        self.built = built
        self.stem = built.stem
        self.carries_wasm = carries_wasm
        self.kept_twin = kept_twin

    def copy_files(self, out):
        """Copies the `copy-file` links' files beside the page."""
        for attrs in re.findall(r"<link data-trunk ([^>]*)>", self.template):
            if attr(attrs, "rel") == "copy-file":
                href = attr(attrs, "href")
                shutil.copy(href, os.path.join(out, os.path.basename(href)))

    def render(self, public, out):
        """Writes the page for the app served at `public` into `out`; returns the files written.
        A page that carries the main module has a twin without it, `kept-<stem>.html`, for a
        browser that holds the module's file (the kit's nginx serves it by a cookie the app sets,
        scripts/inline_wasm.py)."""
        written = []
        if self.carries_wasm:
            written += Page(self.template, self.built, kept_twin=True).render_as(public, out, inline_wasm.kept_page(self.stem))
        return written + self.render_as(public, out, "index.html")

    def render_as(self, public, out, name):
        """Writes this page as `name`; returns the files written."""
        written = [name]
        html = re.sub(r"[ \t]*<link data-trunk ([^>]*)>", lambda m: self.link(m.group(1), public, out, written), self.template)
        if public != "/":
            html = html.replace("<head>", f'<head>\n  <meta name="fluxlens-base" content="{public.rstrip("/")}">', 1)
        js, wasm = f"{public}{self.stem}.js", f"{public}{self.stem}_bg.wasm"
        preload = f'<link rel="modulepreload" href="{js}" crossorigin="anonymous" integrity="{sri(out, self.stem + ".js")}">'
        if self.carries_wasm:
            module = open(os.path.join(out, self.stem + "_bg.wasm"), "rb").read()
            preload += f"<script>{inline_wasm.feeder_js(len(module))}</script>"
            html = must_replace(html, "<body>", "<body>" + inline_wasm.blocks(module))
        else:
            integrity = sri(out, self.stem + "_bg.wasm")
            preload += (f'<link rel="preload" href="{wasm}" crossorigin="anonymous" '
                        f'integrity="{integrity}" as="fetch" type="application/wasm">')
            if self.kept_twin:
                preload += f"<script>{early_compile_js(wasm, integrity)}</script>"
        if self.carries_wasm:
            # A first visit's page only: it waits on the network before its view. A second
            # visit's twin shows the last visit's copy at once, and laying the lines out first
            # only delayed it (warm Fast 4G on the demo, 9 runs each: 344 ms without, 372 with).
            html = must_replace(html, "<body>", "<body>" + font_warmup())
        charset = '<meta charset="utf-8">'
        split.write_text(os.path.join(out, name), must_replace(html, charset, charset + "\n  " + preload))
        return written

    def link(self, attrs, public, out, written):
        rel = attr(attrs, "rel")
        href = attr(attrs, "href")
        if rel == "rust":
            return self.module_script(public)
        if rel == "copy-file":
            return ""
        text = read_text(href)
        if href == PREFETCH:
            text = must_replace(text, FIRST_CHUNKS_LINE, FIRST_CHUNKS_LINE.replace("[]", json.dumps(self.built.first_chunks)))
        # Inline scripts keep their names (the load bench edits the prefetch script's `upTo`).
        if rel == "inline" and href.endswith(".js"):
            return f"<script>{minify.minify(text, 'js', whitespace_only=True).strip()}</script>"
        if rel == "inline" and href.endswith(".css"):
            return f"<style>{minify.minify(text, 'css').strip()}</style>"
        if rel == "css":
            digest = hashlib.sha256(text.encode()).hexdigest()[:16]
            name = f"{os.path.splitext(os.path.basename(href))[0]}-{digest}.css"
            split.write_text(os.path.join(out, name), text)
            written.append(name)
            return f'<link rel="stylesheet" href="{public}{name}" integrity="{sri(out, name)}"/>'
        sys.exit(f"build: {href}: a data-trunk link this build does not do (rel={rel})")

    def module_script(self, public):
        wasm = f"'{public}{self.stem}_bg.wasm'"
        if self.carries_wasm:
            wasm = f"await {inline_wasm.READ_FUNCTION}({wasm}, '{self.stem}', '{public}')"
        elif self.kept_twin:
            # The compile the head started, else the file as before.
            wasm = f"await (window.{EARLY_MAIN} || Promise.reject()).catch(() => {wasm})"
        return (f"<script type=\"module\">\n"
                f"import init, * as bindings from '{public}{self.stem}.js';\n"
                + (inline_wasm.reader_js() if self.carries_wasm else "") +
                f"const wasm = await init({{ module_or_path: {wasm} }});\n"
                f"window.wasmBindings = bindings;\n"
                f"dispatchEvent(new CustomEvent(\"{STARTED_EVENT}\", {{detail: {{wasm}}}}));\n"
                f"</script>")


def early_compile_js(url, integrity):
    """The kept twin's head script: the main module's file (in the browser's cache) compiled
    from the moment the head is read (#51). The module script took it up only once the page was
    parsed and the app's script evaluated: on a second visit, ≈ 60 ms of its compile then stood
    between the app's start and the last visit's copy on screen."""
    return (f"window.{EARLY_MAIN} = WebAssembly.compileStreaming ? "
            f"WebAssembly.compileStreaming(fetch('{url}', {{ integrity: '{integrity}', credentials: 'same-origin' }})) : null;\n"
            f"if (window.{EARLY_MAIN}) window.{EARLY_MAIN}.catch(function () {{}});")


def font_warmup():
    """A hidden line of text in each font the first views use (scripts/first-view-fonts.json),
    first in the body: the browser loads, falls back and shapes them in its first layout, while
    the page still waits on the network, and the view's first layout finds them ready (#51).
    The app removes it when it mounts; nothing of it is seen, read aloud or scrolled to."""
    if not os.path.exists(FONTS):
        return ""
    with open(FONTS, encoding="utf-8") as f:
        listed = json.load(f)
    text = html_lib.escape(FONT_SAMPLE + " " + listed.get("chars", ""))
    lines = []
    for font in listed.get("fonts", []):
        style = f"margin:0;font:{font['font']}"
        if font.get("numeric", "normal") != "normal":
            style += f";font-variant-numeric:{font['numeric']}"
        lines.append(f'<p style="{html_lib.escape(style)}">{text}</p>')
    return ('<div id="fl-font-warmup" aria-hidden="true" style="position:absolute;top:0;left:0;'
            'width:1px;height:1px;overflow:hidden;visibility:hidden;white-space:nowrap">'
            + "".join(lines) + "</div>")


def inputs_hash(args):
    """What the build's output is made of: the input files' paths and bytes, the page, the tools'
    versions and the options."""
    h = hashlib.sha256()
    for path in input_files([*INPUTS, args.html]):
        h.update(path.encode() + b"\0")
        h.update(split.read_bytes(path))
    for tool in (["wasm-bindgen", "--version"], ["wasm-opt", "--version"], ["rustc", "--version"],
                 minify.VERSION):
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


def sri(out, name):
    return "sha384-" + base64.b64encode(hashlib.sha384(split.read_bytes(os.path.join(out, name))).digest()).decode()


def attr(attrs, name):
    found = re.search(rf'{name}="([^"]*)"', attrs)
    return found.group(1) if found else ""


def must_replace(text, old, new):
    if old not in text:
        sys.exit(f"build: the page has no {old}")
    return text.replace(old, new, 1)


def read_text(path):
    return split.read_text(path)


def run(cmd, env=None):
    if subprocess.run(cmd, env=env).returncode != 0:
        sys.exit(f"build: {' '.join(cmd)} failed")


if __name__ == "__main__":
    main()
