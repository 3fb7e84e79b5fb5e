"""The main module carried by the page as text (#51), and the few lines that read it back.

A cold visit used to take two round trips before the wasm's first byte: the page, then the
module its head names. Carried in the page, the module streams right behind the head (whose
inline script has already sent the first API reads), so the visit costs one round trip less:
≈ 560 ms on Slow 4G, ≈ 165 ms on Fast 4G. The module's file stays beside the page (the
embedded panel, the bench's baseline and a page that arrives cut short still fetch it).

Each byte is written as the character with that code (ISO-8859-1, sent as UTF-8), which
brotli packs to within ≈ 4 % of the module's own bytes (base64 would cost ≈ 29 %, hex ≈ 7 %),
except the three bytes the HTML parser would not hand back unchanged inside a script element's
text: NUL (read as U+FFFD), CR (read as a line feed) and `<` (which could close the element or
open a comment). Those are written 256 above their code.

  python3 scripts/inline_wasm.py dist    # checks the built page carries its module whole
"""
import os, re, sys

ELEMENT_ID = "fluxlens-wasm"
READ_FUNCTION = "carriedWasm"
ESCAPED = (0x00, 0x0D, 0x3C)
SHIFT = 0x100
_TABLE = {b: chr(b + SHIFT) for b in ESCAPED}


def data_block(module):
    """A script element the browser keeps as data (its type is not a script's), holding
    `module`'s bytes as characters, with their count to check the page arrived whole."""
    text = module.decode("latin-1").translate(_TABLE)
    return (f'<script type="application/x-fluxlens-wasm" id="{ELEMENT_ID}" '
            f'data-bytes="{len(module)}">{text}</script>')


def reader_js():
    """`READ_FUNCTION(file)`: the carried module's bytes, or `file` (its URL) when the page has
    no block, or one that did not arrive whole and unchanged. The block is dropped once read:
    its text would otherwise stay in the DOM beside the module's memory."""
    escaped = " && ".join(f"c !== {b}" for b in ESCAPED)
    return (f"function {READ_FUNCTION}(file) {{\n"
            f"  const block = document.getElementById('{ELEMENT_ID}');\n"
            f"  if (!block) return file;\n"
            f"  const text = block.textContent;\n"
            f"  block.remove();\n"
            f"  if (text.length !== Number(block.dataset.bytes)) return file;\n"
            f"  const bytes = new Uint8Array(text.length);\n"
            f"  for (let i = 0; i < text.length; i++) {{\n"
            f"    let c = text.charCodeAt(i);\n"
            f"    if (c > 255) {{ c -= {SHIFT}; if ({escaped}) return file; }}\n"
            f"    bytes[i] = c;\n"
            f"  }}\n"
            f"  return bytes;\n"
            f"}}\n")


def decode(text):
    """The bytes a data block's text stands for (the reader's rule; for tests)."""
    out = bytearray()
    for ch in text:
        c = ord(ch)
        if c > 255:
            c -= SHIFT
            if c not in ESCAPED:
                raise ValueError(f"not a carried byte: U+{ord(ch):04X}")
        out.append(c)
    return bytes(out)


def check(dist):
    """Every byte value survives the round trip, and the page in `dist` carries the main
    module's file byte for byte (what scripts/test.sh runs after the build)."""
    every = bytes(range(256)) * 2
    block = data_block(every)
    text = re.search(r'data-bytes="512">(.*)</script>', block, flags=re.S).group(1)
    assert decode(text) == every and not any(ch in text for ch in "\0\r<"), "the byte mapping"
    html = open(os.path.join(dist, "index.html"), encoding="utf-8").read()
    found = re.search(rf'id="{ELEMENT_ID}" data-bytes="(\d+)">(.*?)</script>', html, flags=re.S)
    name = re.search(rf"{READ_FUNCTION}\('[^']*?([\w-]+_bg\.wasm)'\)", html).group(1)
    module = open(os.path.join(dist, name), "rb").read()
    assert found and int(found.group(1)) == len(module) and decode(found.group(2)) == module, \
        f"{dist}/index.html does not carry {name} byte for byte"
    print(f"inline_wasm: {dist}/index.html carries {name} ({len(module)} bytes)")


if __name__ == "__main__":
    check(sys.argv[1] if len(sys.argv) > 1 else "dist")
