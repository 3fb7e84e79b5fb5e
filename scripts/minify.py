"""Scripts and styles made smaller for the wire (#51): comments and whitespace out, by esbuild
(package.json pins `esbuild-wasm`: the same tool as the native one, without a platform binary
the Docker build stage's `npm ci --omit=optional` would leave out), through scripts/minify.mjs."""
import os, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ESBUILD = os.path.join(ROOT, "node_modules", "esbuild-wasm", "package.json")
SCRIPT = os.path.join(ROOT, "scripts", "minify.mjs")
VERSION = ["node", SCRIPT, "--version"]


def minify(text, loader, whitespace_only=False):
    """`text` (loader "js" or "css") minified. `whitespace_only`: names and constants kept as
    written (the page's prefetch script: its `upTo` line is what the load bench edits)."""
    if not os.path.isfile(ESBUILD):
        sys.exit(f"minify: {ESBUILD} is missing: run scripts/setup.sh")
    how = ["--whitespace-only"] if whitespace_only else []
    done = subprocess.run(["node", SCRIPT, loader, *how], input=text.encode(), capture_output=True)
    if done.returncode != 0:
        sys.exit(f"minify: esbuild failed:\n{done.stderr.decode()[:4000]}")
    return done.stdout.decode()
