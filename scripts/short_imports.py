"""The bindings' import names made short (#51). wasm-bindgen names every JS function the main
module imports `__wbg_<name>_<16 hex digits>`: each name is written once in the module's import
section and once in the script that provides it, and its hash is incompressible (≈ 5 KB brotli of
the first load over 212 imports). Both are renamed `a`, `b`, … `Z`, `aa`, … in one step; the
script must name each import exactly once (its imports object), or the build stops."""
import re, sys

import wasmbin

# The module the main wasm imports the bindings from, as wasm-bindgen's script provides it.
BINDINGS = b"./fluxlens_bg.js"
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def short_name(n):
    """The n-th short name: a … Z, aa … ZZ, aaa …"""
    name = ""
    while True:
        name = LETTERS[n % len(LETTERS)] + name
        n = n // len(LETTERS) - 1
        if n < 0:
            return name


def shorten(js, wasm):
    """(js, wasm) with every function the wasm imports from the bindings renamed in both."""
    wasm, renamed = rename_imports(wasm)
    for old, new in renamed.items():
        js, count = re.subn(r"(?<![\w$])" + re.escape(old) + r"(?![\w$])", new, js)
        if count != 1:
            sys.exit(f"short_imports: the script names the import {old} {count} times, not once")
    return js, wasm


def rename_imports(wasm):
    """The module with its bindings' function imports renamed, and {old: new}."""
    out, renamed = bytearray(wasm[:8]), {}
    for sid, start, end in wasmbin.sections(wasm):
        body = wasm[start:end]
        if sid == 2:
            body = bytearray()
            count, at = wasmbin.uleb(wasm, start)
            body += wasmbin.leb(count)
            for _ in range(count):
                module, at = wasmbin.name(wasm, at)
                field, at = wasmbin.name(wasm, at)
                rest, at = at, wasmbin.skip_import_desc(wasm, at)
                if module == BINDINGS and wasm[rest] == 0:
                    renamed[field.decode()] = short_name(len(renamed))
                    field = renamed[field.decode()].encode()
                for name in (module, field):
                    body += wasmbin.leb(len(name)) + name
                body += wasm[rest:at]
        out += bytes([sid]) + wasmbin.leb(len(body)) + bytes(body)
    return bytes(out), renamed


if __name__ == "__main__":
    # Checked by scripts/test.sh: the names are distinct and short, and a script that names an
    # import twice stops the build.
    names = [short_name(n) for n in range(52 * 53 + 1)]
    assert names[:3] == ["a", "b", "c"] and names[51] == "Z" and names[52] == "aa", names[:53]
    assert len(set(names)) == len(names) and names[-1] == "aaa", names[-3:]
    def module_importing(field):
        imports = wasmbin.leb(1) + wasmbin.leb(len(BINDINGS)) + BINDINGS \
            + wasmbin.leb(len(field)) + field + b"\0\0"  # a function of type 0
        return b"\0asm\1\0\0\0" + bytes([2]) + wasmbin.leb(len(imports)) + imports
    module = module_importing(b"__wbg_x_0123456789abcdef")
    js, wasm = shorten("{__wbg_x_0123456789abcdef:function(){}}", module)
    assert js == "{a:function(){}}" and wasm == module_importing(b"a"), (js, wasm)
    try:
        shorten("{__wbg_x_0123456789abcdef:function(){},y:__wbg_x_0123456789abcdef}", module)
    except SystemExit:
        print("short_imports: ok")
    else:
        sys.exit("short_imports: a twice-named import was not refused")
