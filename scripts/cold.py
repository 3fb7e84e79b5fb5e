"""The main module cut in two by what the overview's first view runs (#51): the functions it
calls stay in the main module, the others move to a module of their own, `cold`, fetched after
the first view (scripts/split.py step 3b; the JS side is COLD_RUNTIME below).

Which functions the first view runs is measured, not guessed: scripts/first-view.mjs opens the
overview on every simulator scenario (first and second visits, the embedded panel, Slow 4G, a
few server variants), in a build that keeps its function names and is not cut, notes the
functions V8 compiled before `fluxlens:view-rendered` (each wasm function is compiled on its
first call), and lists the main module's other functions, those no first view ran, in
scripts/cold-functions.txt by their symbol names.

Only what the list names moves: a function it does not name stays in the main module. So a new
or renamed function (its symbol is not in the list) costs the main module a few bytes until
`make first-view` runs again, never a fetch before the view; where a dependency or a feature
changed a crate's symbol hashes, that crate's functions stay (the build says how many of the
list's names it did not find). A moved function the first view does run after all (a path no
scenario took) still works when called: its table slot holds a placeholder that fetches and
instantiates the cold module synchronously, then calls it; e2e/split.test.mjs fails when the
overview's first view needs the cold module (the demo, a second visit, operator-mock). The list
follows what wasm-opt inlined, too: a change of its flags can turn a function the profile only
saw inlined into one the first view calls (it happened with --low-memory-unused); `make
first-view` after any change to the optimisation.
FLUXLENS_COLD_MAP=<file> at build time writes which placeholder (table index, as the runtime's
placeholder is called) stands for which function.

The cut is binaryen's `wasm-split` (Debian's binaryen 108, unpacked under .tools/ by
scripts/setup.sh): the placeholders are imports "placeholder" "<table index>", the cold module
imports the main module's memory, tables, globals and functions from "primary".
"""
import concurrent.futures, os, re, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wasmbin  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARYEN = os.path.join(ROOT, ".tools", "binaryen-108-1", "usr", "bin")
COLD_LIST = os.path.join(ROOT, "scripts", "cold-functions.txt")
# wasm-opt may fold an address's constant part into its load or store when memory below 1 KiB is
# never read or written: rustc's wasm32 layout puts the stack first, from 1 MiB down, and the data
# after it, so only a stack overflowing its whole megabyte would reach there (#51: −1.6 KB brotli
# of the main module). Every wasm-opt pass of the build is given it (scripts/split.py too).
LOW_MEMORY = ["--low-memory-unused"]
# The features rustc's wasm32 target and wasm-bindgen use; binaryen 108 reads them only when told.
FEATURES = ["--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext",
            "--enable-mutable-globals", "--enable-reference-types", "--enable-multivalue"]
EXPORT_PREFIX = "%"


def tool(name):
    path = os.path.join(BINARYEN, name)
    if not os.access(path, os.X_OK):
        sys.exit(f"cold: {path} is missing: run scripts/setup.sh")
    return path


def function_names(wasm):
    """Every function of `wasm` (named: built with wasm-opt -g) by index, as binaryen spells it."""
    done = subprocess.run([tool("wasm-opt"), wasm, *FEATURES, "--print-function-map", "-o", os.devnull],
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"cold: reading the function names of {wasm} failed:\n{done.stderr}")
    names = {}
    for line in done.stdout.splitlines():
        index, _, name = line.partition(":")
        if index.isdigit():
            names[int(index)] = name
    return names


def exact(name):
    """A function's name as the list keeps it: without binaryen's suffix for a repeated name."""
    return re.sub(r"\.\d+$", "", name)


# Names a build gives by position (wasm-bindgen's shims and closures, binaryen's `fimport$N`):
# the same name can stand for another function in the next build.
BY_POSITION = re.compile(r"\$\d+|shim_\d+|shim_idx|^<unknown>")


def matchable(name):
    """Whether `name` names the same function from one build to the next: a symbol, not a
    name given by position (or an index, binaryen's name for a function without one)."""
    return not name.isdigit() and not BY_POSITION.search(name)


def moved_names(names, imported, cold_list):
    """The functions (index → name) that move: those the list names, by their exact symbol.
    A function the list cannot name for sure (see `matchable`) stays."""
    return {i: n for i, n in names.items()
            if i >= imported and matchable(n) and exact(n) in cold_list}


def read_cold_list():
    with open(COLD_LIST, encoding="utf-8") as f:
        return {line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")}


def cut(main, cold_out):
    """Cuts `main` (optimised, names kept) in place into the first view's module and writes the
    rest to `cold_out`; both optimised again without names. Returns (functions kept, moved)."""
    cold_list = read_cold_list()
    names = function_names(main)
    imported = wasmbin.imported_functions(read(main))
    moved = list(moved_names(names, imported, cold_list).values())
    missing = len(cold_list - {exact(n) for n in names.values()})
    if missing > len(cold_list) // 20:
        # Not an error: they stay in the main module, which is only larger for it.
        print(f"cold: {missing} of the {len(cold_list)} functions scripts/cold-functions.txt names "
              "are not in this build (renamed, or a dependency changed): run `make first-view`",
              file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="fluxlens-cold-") as tmp:
        listing = os.path.join(tmp, "moved.txt")
        with open(listing, "w", encoding="utf-8") as f:
            f.write("\n".join(moved) + "\n")
        primary, secondary = os.path.join(tmp, "primary.wasm"), os.path.join(tmp, "cold.wasm")
        done = subprocess.run([tool("wasm-split"), main, *FEATURES, "--split-funcs", "@" + listing,
                               "-o1", primary, "-o2", secondary, "--export-prefix=" + EXPORT_PREFIX,
                               *(["--placeholdermap"] if os.environ.get("FLUXLENS_COLD_MAP") else [])],
                              capture_output=True, text=True)
        missing = [line for line in done.stderr.splitlines() if "does not exist" in line]
        if done.returncode != 0 or missing:
            sys.exit(f"cold: wasm-split failed:\n{done.stderr[:4000]}")
        fix_table_exports(main, primary)
        if os.environ.get("FLUXLENS_COLD_MAP"):
            shutil.copy(primary + ".placeholders", os.environ["FLUXLENS_COLD_MAP"])
        jobs = [(primary, main), (secondary, cold_out)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            for _ in pool.map(lambda j: optimise(*j), jobs):
                pass
    return len(names) - imported - len(moved), len(moved)


def optimise(src, dst):
    done = subprocess.run(["wasm-opt", "-Oz", *LOW_MEMORY, "--strip-debug", *FEATURES, src, "-o", dst],
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"cold: wasm-opt on {src} failed:\n{done.stderr}")


def fix_table_exports(original_path, primary_path):
    """binaryen 108 writes every table export of a module with two tables as the first table:
    wasm-bindgen's `__wbindgen_externrefs` then names the function table. Each exported table is
    pointed back at the table of its element type in the original."""
    original, primary = read(original_path), bytearray(read(primary_path))
    wanted = {name: wasmbin.table_types(original)[index] for name, index, _ in table_exports(original)}
    types = wasmbin.table_types(bytes(primary))
    for name, index, at in table_exports(bytes(primary)):
        if types[index] != wanted[name]:
            right = types.index(wanted[name])
            if right > 127 or primary[at] > 127:
                sys.exit("cold: a table index this fix cannot rewrite in place")
            primary[at] = right
    with open(primary_path, "wb") as f:
        f.write(bytes(primary))


def read(path):
    with open(path, "rb") as f:
        return f.read()


def table_exports(wasm):
    """(name, table index, offset of its index) of every exported table."""
    out = []
    for sid, start, _ in wasmbin.sections(wasm):
        if sid == 7:
            count, at = wasmbin.uleb(wasm, start)
            for _ in range(count):
                name, at = wasmbin.name(wasm, at)
                kind = wasm[at]
                index, after = wasmbin.uleb(wasm, at + 1)
                if kind == 1:
                    out.append((name.decode(), index, at + 1))
                at = after
    return out


# The main JS's side: the placeholders the main module imports, and the cold module's loading.
# `cold.wasm` is renamed with the build's other files (split.py write_outputs).
COLD_RUNTIME = r'''
// The main module's code the overview's first view does not run (#51, scripts/cold.py): its own
// module, fetched once the first view is on screen (or by any chunk's load, or ten seconds in);
// a call into it before then fetches it synchronously (a path the first view rarely takes).
const __fluxlens_cold = (() => {
    const url = new URL("./cold.wasm", import.meta.url);
    let module, pending, done = false;
    const instantiate = (m) => {
        if (done) return;
        // Its start writes its functions into the main module's table, over the placeholders.
        new WebAssembly.Instance(m, { primary: wasm });
        done = true;
    };
    const now = () => {
        if (done) return;
        if (!module) {
            const xhr = new XMLHttpRequest();
            xhr.open("GET", url, false);
            xhr.overrideMimeType("text/plain; charset=x-user-defined");
            xhr.send();
            if (xhr.status !== 200) throw new Error("fluxlens: " + url + " did not arrive (" + xhr.status + ")");
            const text = xhr.responseText;
            const bytes = new Uint8Array(text.length);
            for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
            module = new WebAssembly.Module(bytes);
        }
        instantiate(module);
    };
    const later = () => {
        if (done) return Promise.resolve();
        if (!pending) {
            pending = WebAssembly.compileStreaming(fetch(url)).then((m) => { module = module || m; instantiate(module); });
            pending.catch(() => { pending = undefined; });
        }
        return pending;
    };
    const placeholders = new Proxy({}, {
        get: (_, index) => (...args) => {
            now();
            return wasm.__indirect_function_table.get(Number(index))(...args);
        },
    });
    const soon = () => setTimeout(() => later().catch(() => {}), 0);
    if (typeof PerformanceObserver === "function") {
        const watch = new PerformanceObserver((list) => {
            if (list.getEntriesByName("fluxlens:view-rendered").length) { watch.disconnect(); soon(); }
        });
        watch.observe({ entryTypes: ["mark"] });
    }
    setTimeout(soon, 10000);
    return { later, placeholders };
})();
'''


def with_cold_runtime(js):
    """The main JS with the placeholders given to the main module and each page's chunk loading
    the cold module beside it (a page's code calls into it: fetched with the page, not
    synchronously when its code first needs it). Not the snapshot codec's, nor the code chunks
    share: a second visit shows the last visit's copy with them before its view, a path that
    runs no cold code."""
    imports = '    return {\n        __proto__: null,\n        "./fluxlens_bg.js": import0,'
    js = replace_once(js, imports, imports.replace("__proto__: null,", "__proto__: null,\n        placeholder: __fluxlens_cold.placeholders,"))
    js = replace_once(js, "function makeLoad(fetcher, deps) {", "function makeLoad(fetcher, deps, cold = false) {")
    # Not a failure of the chunk when the cold module's fetch fails: a call into it then fetches
    # it synchronously (the placeholders).
    js = replace_once(js, "        const parallelStuff = deps.map(d => d());",
                      "        const parallelStuff = [cold && __fluxlens_cold.later().catch(() => {}), ...deps.map(d => d())];")
    # Each page's loader (not the code pages share, loaded through it, nor the codec's).
    pages = re.compile(r"^const (__wasm_split_load_(?!fluxlens_snapshot\b)\w+) = wrapAsyncCb\(makeLoad\(", re.M)
    js, count = pages.subn(r"const \1 = wrapAsyncCb(((f, d) => makeLoad(f, d, true))(", js)
    if count < 5:
        sys.exit(f"cold: expected a loader per page in the generated JS, found {count}")
    return js + COLD_RUNTIME


def replace_once(text, old, new):
    if text.count(old) != 1:
        sys.exit(f"cold: the generated JS is not as this build expects: {old.strip()[:80]}")
    return text.replace(old, new)
