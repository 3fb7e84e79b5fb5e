"""The main module carried by the page as text (#51), and the few lines that read it back.

A cold visit used to take two round trips before the wasm's first byte: the page, then the
module its head names. Carried in the page, the module streams right behind the head (whose
inline script has already sent the first API reads), so the visit costs one round trip less:
≈ 560 ms on Slow 4G, ≈ 165 ms on Fast 4G. The module's file stays beside the page (the bench's
baseline and a page that arrives cut short or altered still fetch it).

Each byte is written as the character with that code (ISO-8859-1, sent as UTF-8), which
brotli packs to within ≈ 4 % of the module's own bytes (base64 would cost ≈ 29 %, hex ≈ 7 %),
except the three bytes the HTML parser would not hand back unchanged inside a script element's
text: NUL (read as U+FFFD), CR (read as a line feed) and `<` (which could close the element or
open a comment). Those are written 256 above their code.

The text comes in blocks of BLOCK bytes, each followed by a one-line script that hands it to
the browser's streaming compiler as the parser reaches it, so the module is compiled while the
rest of the page arrives, as a fetched module would be. Every feeding script has the same text:
one CSP hash. The app's module script (run once the page is parsed) takes the compiled module,
or the file when a block is missing or altered.

  python3 scripts/inline_wasm.py dist    # checks the built page carries its module whole
"""
import os, re, sys

BLOCK_TYPE = "application/x-fluxlens-wasm"
BLOCK = 64 * 1024
ESCAPED = (0x00, 0x0D, 0x3C)
SHIFT = 0x100
READ_FUNCTION = "carriedWasm"
# The cookie that names the build whose module file the browser holds (read by the kit's nginx:
# deploy/nginx/*.template), how long it is kept, and when after the module started the file is
# fetched (the view on screen, the first reads done).
KEPT_COOKIE = "fluxlens_module"
KEPT_SECONDS = 31536000
KEEP_AFTER_MS = 2000
# The feeding script's whole text (its CSP hash is the same for every block).
FEED = "__fluxlensFeed(document.currentScript)"
_TABLE = {b: chr(b + SHIFT) for b in ESCAPED}


def blocks(module):
    """The module as data blocks (script elements the browser keeps as data: their type is
    not a script's), each followed by its feeding script."""
    text = module.decode("latin-1").translate(_TABLE)
    return "".join(f'<script type="{BLOCK_TYPE}">{text[i:i + BLOCK]}</script><script>{FEED}</script>'
                   for i in range(0, len(text), BLOCK))


def feeder_js(length):
    """The head's script: a stream into `WebAssembly.compileStreaming`, fed block by block.
    A character that is not a carried byte, or more bytes than `length`, fails the compile;
    `end()` (the module script, once the page is parsed) fails it too when bytes are missing."""
    checks = " && ".join(f"c !== {b}" for b in ESCAPED)
    return ("(function () {\n"
            "  if (typeof ReadableStream !== 'function' || !WebAssembly.compileStreaming) {\n"
            "    // No streaming compile: the blocks are dropped unread and the file is fetched.\n"
            "    window.__fluxlensFeed = function (script) {\n"
            "      var block = script.previousElementSibling;\n"
            "      script.remove();\n"
            f"      if (block && block.type === '{BLOCK_TYPE}') block.remove();\n"
            "    };\n"
            "    return;\n"
            "  }\n"
            "  var sink, fed = 0, failed = false;\n"
            "  var stream = new ReadableStream({ start: function (c) { sink = c; } });\n"
            "  var compiled = WebAssembly.compileStreaming(new Response(stream, { headers: { 'Content-Type': 'application/wasm' } }));\n"
            "  compiled.catch(function () {});\n"
            "  var fail = function (why) { if (!failed) { failed = true; sink.error(new Error(why)); } };\n"
            "  window.__fluxlensFeed = function (script) {\n"
            "    var block = script.previousElementSibling;\n"
            "    script.remove();\n"
            f"    if (!block || block.type !== '{BLOCK_TYPE}') return fail('a carried block is missing');\n"
            "    var text = block.textContent;\n"
            "    block.remove();\n"
            "    if (failed) return;\n"
            "    var bytes = new Uint8Array(text.length);\n"
            "    for (var i = 0; i < text.length; i++) {\n"
            "      var c = text.charCodeAt(i);\n"
            f"      if (c > 255) {{ c -= {SHIFT}; if ({checks}) return fail('a carried block was altered'); }}\n"
            "      bytes[i] = c;\n"
            "    }\n"
            "    fed += bytes.length;\n"
            f"    if (fed > {length}) return fail('more carried bytes than the module has');\n"
            "    sink.enqueue(bytes);\n"
            f"    if (fed === {length}) sink.close();\n"
            "  };\n"
            "  window.__fluxlensCarried = { compiled: compiled, end: function () {\n"
            f"    if (fed !== {length}) fail('the page arrived without every carried block');\n"
            "  } };\n"
            "})();")


def reader_js():
    """`READ_FUNCTION(file, stem, path)`: the compiled carried module, or `file` (its URL) when
    the page carries none or the carried one did not arrive whole and unchanged. Once the view
    has been on screen a while, the file is fetched into the browser's cache and the cookie
    KEPT_COOKIE names it: the kit's nginx then answers the next visit with `kept_page(stem)`,
    the page without the module's copy, which compiles the cached file (and V8's cached code
    for it) instead of reading and parsing 1 MB of page again (#51: ≈ 25–35 ms on a second
    visit). A cookie naming an older build falls back to this page."""
    return (f"async function {READ_FUNCTION}(file, stem, path) {{\n"
            "  const carried = window.__fluxlensCarried;\n"
            "  if (!carried) return file;\n"
            "  carried.end();\n"
            "  let module;\n"
            "  try { module = await carried.compiled; } catch (e) { return file; }\n"
            "  setTimeout(() => fetch(file).then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(r.status))).then(() => {\n"
            f"    document.cookie = `{KEPT_COOKIE}=${{stem}}; path=${{path}}; max-age={KEPT_SECONDS}; samesite=lax`;\n"
            f"  }}, () => {{}}), {KEEP_AFTER_MS});\n"
            "  return module;\n"
            "}\n")


def kept_page(stem):
    """The name of the page without the module's copy, for a browser that holds its file."""
    return f"kept-{stem}.html"


def decode(text):
    """The bytes a block's text stands for (the feeding script's rule; for tests)."""
    out = bytearray()
    for ch in text:
        c = ord(ch)
        if c > 255:
            c -= SHIFT
            if c not in ESCAPED:
                raise ValueError(f"not a carried byte: U+{ord(ch):04X}")
        out.append(c)
    return bytes(out)


def carried(html):
    """The bytes a page carries, its blocks joined in order."""
    pattern = rf'<script type="{re.escape(BLOCK_TYPE)}">(.*?)</script><script>{re.escape(FEED)}</script>'
    return b"".join(decode(t) for t in re.findall(pattern, html, flags=re.S))


def check(dist):
    """Every byte value survives the round trip, and the page in `dist` carries the main
    module's file byte for byte (what scripts/test.sh runs after the build)."""
    every = bytes(range(256)) * 600
    page = blocks(every)
    assert carried(page) == every and page.count(FEED) == -(-len(every) // BLOCK), "the byte mapping"
    assert not any(ch in page.replace("<script", "").replace("</script>", "") for ch in "\0\r<"), "escapes"
    html = open(os.path.join(dist, "index.html"), encoding="utf-8").read()
    name = re.search(rf"{READ_FUNCTION}\('[^']*?([\w-]+_bg\.wasm)'", html).group(1)
    module = open(os.path.join(dist, name), "rb").read()
    assert carried(html) == module and f"fed === {len(module)}" in html, \
        f"{dist}/index.html does not carry {name} byte for byte"
    kept = open(os.path.join(dist, kept_page(name[: -len("_bg.wasm")])), encoding="utf-8").read()
    assert BLOCK_TYPE not in kept and f'{name}" crossorigin' in kept, f"{dist}: the kept page"
    print(f"inline_wasm: {dist}/index.html carries {name} ({len(module)} bytes)")


if __name__ == "__main__":
    check(sys.argv[1] if len(sys.argv) > 1 else "dist")
