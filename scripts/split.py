#!/usr/bin/env python3
"""The wasm side of the release build (scripts/build.py): cuts the app's module into the
overview's module and one chunk per other page (#28), binds and optimises each once, and names
every file for this build.

The split needs the module as the linker wrote it, relocations included (.cargo/config.toml),
so it starts from cargo's own output:

  1. wasm-split-cli (wasm_split_cli_support, pinned in scripts/setup.sh) cuts the module at
     the `#[wasm_split]` points of src/pages/split.rs: the main module, a module per page
     and chunks of code that several pages share, and the loader (__wasm_split.js), which
     scripts/eager_chunks.py rewrites to compile each chunk as it arrives, or take the
     compile the page started;
  2. wasm-bindgen binds the main module (--target web);
  3. wasm-opt -Oz optimizes every module (two at a time);
  3b. the main module is cut again by what the overview's first view runs (scripts/cold.py):
     the rest goes to the `cold` module, fetched after the first view (#51);
  4. the main JS takes in the modules it imports (the loader, the API reader's snippet), so the
     app's script is one request: on HTTP/1.1 the first load has six connections for the script,
     the wasm and the API reads, and each small module held one of them for a round trip (#28);
     the reader's file stays, for its worker, which starts after the first load;
  5. every file gets one name for this build: fluxlens-<hash>.js and _bg.wasm, each chunk and
     the snippets' folder with the same <hash>, a hash of all their bytes: a deploy that
     changes any of them changes every name, so the kit's year-long caching of hashed assets
     holds.

Without split points (`one_module`, the load bench's "before #28" build) the module is bound
whole, its linker sections dropped, and optimised once.
"""
import concurrent.futures, hashlib, os, re, shutil, subprocess, sys, tempfile
from typing import NamedTuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cold  # noqa: E402
import eager_chunks  # noqa: E402
import minify  # noqa: E402
import short_imports  # noqa: E402
import wasmbin  # noqa: E402

APP = "fluxlens"
LOADER = "__wasm_split"
# The main module's code the first view does not run (scripts/cold.py), named as a chunk.
COLD = "cold"
# The chunk a second visit's first view needs (the last visit's copy is read with its code):
# its files are started by the page itself (src/api/prefetch.js, scripts/eager_chunks.py).
FIRST_CHUNK = "fluxlens_snapshot"


class Split(NamedTuple):
    """A split build's files: `stem` (fluxlens-<hash>) and the files of the first view's chunk
    (`first_chunks`, under their names for this build)."""
    stem: str
    first_chunks: list


def split_app(source, out, profile=False):
    """Writes the split app into `out`; returns its `Split`. `profile`: the main
    module keeps its function names and its cold code (scripts/first-view.mjs measures it)."""
    with tempfile.TemporaryDirectory(prefix="fluxlens-split-") as tmp:
        run(["wasm-split-cli", source, tmp, "--target", "web", "--out-name", APP])
        first = eager_chunks.rewrite_file(os.path.join(tmp, LOADER + ".js"), FIRST_CHUNK)
        bound = os.path.join(tmp, "bound")
        run(["wasm-bindgen", "--target", "web", "--no-typescript", "--out-dir", bound,
             "--out-name", APP, os.path.join(tmp, APP + ".wasm")])
        export_function_table(os.path.join(bound, APP + "_bg.wasm"))
        chunks = sorted(n for n in os.listdir(tmp) if n.endswith(".wasm") and n != APP + ".wasm")
        modules = [os.path.join(bound, APP + "_bg.wasm")] + [os.path.join(tmp, n) for n in chunks]
        optimize(modules, names_in_main=True)
        js = with_modules_inlined(read_text(os.path.join(bound, APP + ".js")), APP, tmp, bound)
        cut = ""
        if not profile:
            kept, moved = cold.cut(modules[0], os.path.join(tmp, COLD + ".wasm"))
            chunks.append(COLD + ".wasm")
            js = cold.with_cold_runtime(js)
            cut = f" ({kept} functions; {moved} more in the cold module)"
        # The bindings, the chunks' loaders and the cold runtime: a third of the bytes (#51).
        js, wasm = short_imports.shorten(minify.minify(js, "js"), read_bytes(modules[0]))
        files = {
            "js": js,
            "wasm": wasm,
            "chunks": {n[:-len(".wasm")]: read_bytes(os.path.join(tmp, n)) for n in chunks},
        }
        new = APP + "-" + build_hash(files)
        write_outputs(out, APP, new, files)
        write_snippets(out, bound, new)
    print(f"split: {new}: main module{cut} and {len(files['chunks'])} chunks")
    return Split(new, [chunk_file(f[:-len(".wasm")], new) for f in first])


def one_module(source, out):
    """Writes the app as one bound module into `out`, its JS modules apart; returns its stem."""
    with tempfile.TemporaryDirectory(prefix="fluxlens-one-") as tmp:
        run(["wasm-bindgen", "--target", "web", "--no-typescript", "--out-dir", tmp,
             "--out-name", APP, source])
        wasm = os.path.join(tmp, APP + "_bg.wasm")
        dropped = strip_link_sections(wasm)
        optimize([wasm])
        files = {"js": read_text(os.path.join(tmp, APP + ".js")), "wasm": read_bytes(wasm), "chunks": {}}
        new = APP + "-" + build_hash(files)
        write_text(os.path.join(out, new + ".js"), files["js"].replace(APP + "_bg.wasm", new + "_bg.wasm"))
        write_bytes(os.path.join(out, new + "_bg.wasm"), files["wasm"])
        if os.path.isdir(os.path.join(tmp, "snippets")):
            shutil.copytree(os.path.join(tmp, "snippets"), os.path.join(out, "snippets"))
    print(f"split: {new}: one module, {dropped} bytes of link sections dropped")
    return new


def optimize(modules, names_in_main=False):
    # -Oz: the smallest code; two at a time (this machine's two cores). The main module keeps
    # its function names for the cold cut (scripts/cold.py), which drops them.
    def one(m):
        names = ["-g"] if names_in_main and m == modules[0] else []
        run(["wasm-opt", "-Oz", *cold.LOW_MEMORY, *names, m, "-o", m], quiet=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for _ in pool.map(one, modules):
            pass


def export_function_table(path):
    """Exports the funcref table again as `__indirect_function_table`: the chunks import it to
    call into the main module and back, and wasm-bindgen (0.2.130) drops that export."""
    wasm = read_bytes(path)
    sections = list(wasmbin.sections(wasm))
    table = function_table_index(wasm)
    name = b"__indirect_function_table"
    out = bytearray(wasm[:8])
    for sid, start, end in sections:
        body = wasm[start:end]
        if sid == 7:
            count, at = wasmbin.uleb(body, 0)
            if name in body:
                return
            body = wasmbin.leb(count + 1) + body[at:] + wasmbin.leb(len(name)) + name + b"\x01" + wasmbin.leb(table)
        out += bytes([sid]) + wasmbin.leb(len(body)) + body
    write_bytes(path, bytes(out))


def strip_link_sections(path):
    """Drops the linker's custom sections (`linking`, `reloc.*`) from a module; returns the
    bytes dropped."""
    wasm = read_bytes(path)
    out = bytearray(wasm[:8])
    for sid, start, end in wasmbin.sections(wasm):
        if sid == 0:
            size, at = wasmbin.uleb(wasm, start)
            name = wasm[at:at + size]
            if name == b"linking" or name.startswith(b"reloc."):
                continue
        out += bytes([sid]) + wasmbin.leb(end - start) + wasm[start:end]
    write_bytes(path, bytes(out))
    return len(wasm) - len(out)


def function_table_index(wasm):
    """The index of the first funcref table, imported tables counted first."""
    types = wasmbin.table_types(wasm)
    if 0x70 not in types:
        sys.exit("split: the main module has no function table")
    return types.index(0x70)


def build_hash(files):
    h = hashlib.sha256()
    for part in (files["js"].encode(), files["wasm"]):
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    for name, data in sorted(files["chunks"].items()):
        h.update(name.encode() + b"\0")
        h.update(data)
    return h.hexdigest()[:16]


def chunk_file(name, new):
    """The file of chunk `name` in build `new` (fluxlens-<hash>): `chunk_8-<hash>.wasm`."""
    return f"{name}{new[len(APP):]}.wasm"


def write_outputs(staging, stem, new, files):
    """Writes the files under this build's names."""
    js = files["js"]
    for name, data in files["chunks"].items():
        js = must_replace(js, f'"./{name}.wasm"', f'"./{chunk_file(name, new)}"')
        write_bytes(os.path.join(staging, chunk_file(name, new)), data)
    js = js.replace(stem + "_bg.wasm", new + "_bg.wasm")
    # The snippets' folder (see write_snippets).
    js = js.replace('"./snippets/', f'"./snippets/{new}/')
    write_text(os.path.join(staging, new + ".js"), js)
    write_bytes(os.path.join(staging, new + "_bg.wasm"), files["wasm"])


def write_snippets(staging, bound, new):
    """The files of the main module's JS snippets (src/api/reader.js: its worker's script)
    under snippets/<new>/<crate>/: wasm-bindgen names their folder after the crate, not their
    content, and the kit keeps anything under a hashed name for a year."""
    src = os.path.join(bound, "snippets")
    dst = os.path.join(staging, "snippets")
    shutil.rmtree(dst, ignore_errors=True)
    if not os.path.isdir(src):
        return
    shutil.copytree(src, os.path.join(dst, new))


def with_modules_inlined(js, stem, tmp, bound):
    """The main JS with the loader and every snippet it imports taken in, each module in a
    function of its own (its names stay its own), its exports bound where the import was."""
    out = []
    for line in js.splitlines(keepends=True):
        star = re.fullmatch(r'import \* as (\w+) from "\./' + LOADER + r'\.js";?\n?', line)
        named = re.fullmatch(r"import \{ ([\w, ]+) \} from '\./(snippets/[^']+\.js)';?\n?", line)
        if star:
            out.append(("star", star.group(1), os.path.join(tmp, LOADER + ".js"), LOADER + ".js"))
        elif named:
            out.append(("named", named.group(1), os.path.join(bound, named.group(2)), named.group(2)))
        elif line.startswith("import "):
            sys.exit("split: the main JS imports a module this build does not know: " + line.strip())
        else:
            out.append(line)
    body = "".join(x for x in out if isinstance(x, str))
    modules = {}
    tail = ""
    for kind, names, path, url in (x for x in out if not isinstance(x, str)):
        if path not in modules:
            modules[path] = "__fluxlens_module" + str(len(modules))
            tail += f"const {modules[path]} = {module_function(read_text(path), stem, url)};\n"
        if kind == "star":
            tail += f"const {names} = {modules[path]};\n"
        else:
            tail += f"const {{ {names} }} = {modules[path]};\n"
    # At the end: the imports are used when the app starts (init), after this file has run.
    return body + "\n" + tail


def module_function(text, stem, url):
    """An ES module as an expression: its code in a function that returns its exports. It may
    import only the main JS (names it has at its top level); `import.meta.url` is the module's
    own file (`url`, next to the main JS), as it was."""
    text = re.sub(r'^import \{ [\w, ]+ \} from "\./' + re.escape(stem) + r'\.js";\n', "", text, flags=re.M)
    exports = re.findall(r"^export (?:const|let|function|async function|class) (\w+)", text, flags=re.M)
    text = re.sub(r"^export (const|let|function|async function|class) ", r"\1 ", text, flags=re.M)
    if re.search(r"^\s*(import|export)\b", text, flags=re.M):
        sys.exit("split: a module the main JS takes in has an import or export this build cannot take")
    text = text.replace("import.meta.url", f'new URL("./{url}", import.meta.url).href')
    return "(() => {\n" + text + "\nreturn { " + ", ".join(exports) + " };\n})()"


def must_replace(text, old, new):
    if old not in text:
        sys.exit(f"split: expected {old} in the generated JS")
    return text.replace(old, new)


def run(cmd, quiet=False):
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"split: {' '.join(cmd)} failed:\n{done.stdout}{done.stderr}")
    if not quiet and done.stdout.strip():
        print(done.stdout.strip())


def read_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def write_text(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)
