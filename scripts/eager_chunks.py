#!/usr/bin/env python3
"""The chunks' loader (wasm-split-cli's `__wasm_split.js`) rewritten so that a chunk's code is
compiled as soon as its bytes come, and the page can start that before the app's script runs
(#51).

As generated, a chunk's load fetches its module and the modules it shares with other chunks
at once, but compiles each only when it is instantiated, after every module it depends on
has been: the snapshot codec's chunk (what a second visit's first view needs, to read the last
visit's copy) compiled its own 100 KB only after its twelve dependencies, one step after
another, all between the app's start and its first view. Rewritten:

  * each module compiles while it streams in (`WebAssembly.compileStreaming`), and a load
    instantiates it once the modules it depends on are: every module of a chunk compiles at
    once, as its bytes come;
  * a compile the page has already started is taken instead of fetching the module again
    (`globalThis.__fluxlensEarlyChunks`, by the module's address: src/api/prefetch.js starts
    those of the chunk its first view needs, which `chunk_files` lists for scripts/build.py).

The rewrite fails the build when the generated loader is not the one it knows (wasm-split-cli
is pinned in scripts/setup.sh).
"""
import re
import sys

FETCHER = re.compile(
    r'\(\) => \{\n'
    r'    const src = fetch\((new URL\("\./[\w.-]+\.wasm", import\.meta\.url\))\);\n'
    r'    src\.catch\(\(\) => \{\}\);\n'
    r'    return async \(imports\) => \(WebAssembly\.instantiateStreaming\(src, imports\)\);\n'
    r'\}\n')

OLD_LOAD = '''    const loader = async () => {
        const parallelStuff = deps.map(d => d());
        const instantiate = fetcher();
        await Promise.all(parallelStuff);
        const imports = getSharedImports();
        return instantiate(imports);
    };
'''

# The lines scripts/cold.py rewrites stay as they were (`function makeLoad(fetcher, deps) {`
# and the `parallelStuff` line).
NEW_LOAD = '''    const loader = async () => {
        const parallelStuff = deps.map(d => d());
        // Compiling while the modules it depends on load (caught here too: when a dependency
        // fails first, this one's failure would go unhandled).
        const module = fetcher();
        module.catch(() => {});
        await Promise.all(parallelStuff);
        const imports = getSharedImports();
        return WebAssembly.instantiate(await module, imports);
    };
'''

COMPILE = """
// A module's compile: the one the page started (src/api/prefetch.js), else a new one.
function __fluxlens_compile(url) {
    const early = globalThis.__fluxlensEarlyChunks;
    const started = early && early[url.href];
    if (started) {
        // Taken once: a compile that failed is not taken again.
        delete early[url.href];
        return started;
    }
    return WebAssembly.compileStreaming(fetch(url));
}
"""


def rewrite(js):
    """The loader `js` with eager compiles, each taken from the page when it started it."""
    js, fetchers = FETCHER.subn(r'() => __fluxlens_compile(\1)\n', js)
    if fetchers == 0 or "instantiateStreaming" in js:
        sys.exit("eager_chunks: the generated loader fetches its chunks in a way this build does not know")
    return replace_once(js, OLD_LOAD, NEW_LOAD) + COMPILE


def chunk_files(js, split):
    """The files of `split`'s chunk (`fluxlens_snapshot`): its own module and those it depends
    on, as the rewritten loader `js` names them (each fetcher on one line)."""
    files = dict(re.findall(r'^const (__chunk_\d+) = makeLoad\(\(\) => [^\n]*"\./([\w.-]+\.wasm)"', js, flags=re.M))
    own = re.search(r'^export const __wasm_split_load_' + split + r' = wrapAsyncCb\(makeLoad\(\(\) => [^\n]*"\./([\w.-]+\.wasm)"[^\n]*\n, \[([^\]]*)\]', js, flags=re.M)
    if not own:
        sys.exit(f"eager_chunks: the loader has no chunk {split}")
    deps = [d.strip() for d in own.group(2).split(",") if d.strip()]
    if any(d not in files for d in deps):
        sys.exit(f"eager_chunks: a module {split} depends on has no file in the loader")
    return [own.group(1)] + [files[d] for d in deps]


def replace_once(text, old, new):
    if text.count(old) != 1:
        sys.exit(f"eager_chunks: the generated loader is not as this build expects: {old.strip()[:80]}")
    return text.replace(old, new)


def rewrite_file(path, split):
    """Rewrites the loader at `path`; returns `chunk_files` of `split`."""
    with open(path, encoding="utf-8") as f:
        js = rewrite(f.read())
    with open(path, "w", encoding="utf-8") as f:
        f.write(js)
    return chunk_files(js, split)
