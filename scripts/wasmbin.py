"""Reading a wasm module's bytes, as the build's own steps need it (scripts/split.py,
scripts/cold.py): sections, LEB128 integers, imports and tables."""
import sys


def uleb(data, at):
    """The unsigned LEB128 integer at `at`, and the offset after it."""
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def leb(value):
    """`value` as unsigned LEB128."""
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def sections(wasm):
    """(id, start, end) of every section's body."""
    at = 8
    while at < len(wasm):
        sid = wasm[at]
        size, at = uleb(wasm, at + 1)
        yield sid, at, at + size
        at += size


def name(wasm, at):
    """The name (bytes) at `at`, and the offset after it."""
    size, at = uleb(wasm, at)
    return wasm[at:at + size], at + size


def skip_limits(wasm, at):
    flags = wasm[at]
    _, at = uleb(wasm, at + 1)
    if flags & 1:
        _, at = uleb(wasm, at)
    return at


def imports(wasm):
    """(kind, table element type or None) of every import: kind 0 function, 1 table, 2 memory,
    3 global."""
    for sid, start, _ in sections(wasm):
        if sid != 2:
            continue
        count, at = uleb(wasm, start)
        for _ in range(count):
            for _ in range(2):  # module and field names
                _, at = name(wasm, at)
            kind = wasm[at]
            yield kind, wasm[at + 1] if kind == 1 else None
            at = skip_import_desc(wasm, at)


def skip_import_desc(wasm, at):
    """The offset after the import description at `at` (its kind and what that kind holds)."""
    kind = wasm[at]
    at += 1
    if kind == 0:
        return uleb(wasm, at)[1]
    if kind == 1:
        return skip_limits(wasm, at + 1)
    if kind == 2:
        return skip_limits(wasm, at)
    if kind == 3:
        return at + 2
    sys.exit("wasm: an import kind this build cannot read")


def table_types(wasm):
    """The element type (0x70 funcref, 0x6f externref) of every table, imported ones first."""
    out = [elem for kind, elem in imports(wasm) if kind == 1]
    for sid, start, _ in sections(wasm):
        if sid == 4:
            count, at = uleb(wasm, start)
            for _ in range(count):
                out.append(wasm[at])
                at = skip_limits(wasm, at + 1)
    return out


def imported_functions(wasm):
    """How many functions `wasm` imports (they come first in the function index space)."""
    return sum(1 for kind, _ in imports(wasm) if kind == 0)


def body_sizes(wasm):
    """Function index → the size of its body in bytes (the code section's entry, without its
    size), as V8's trace reports a compiled function's `bodySize`."""
    first = imported_functions(wasm)
    out = {}
    for sid, start, _ in sections(wasm):
        if sid == 10:
            count, at = uleb(wasm, start)
            for n in range(count):
                size, at = uleb(wasm, at)
                out[first + n] = size
                at += size
    return out
