#!/usr/bin/env python3
"""Fails when modules of a crate depend on each other in a cycle (#24).

For every pair of sibling modules (children of the same parent module) an edge a -> b exists
when code in a (or below it) names b (or something below it) through `crate::`, `super::` or
`self::` paths. Each strongly connected group of two or more siblings is a cycle. Test modules
(`mod tests`, `#[cfg(test)]` files) are not counted: a test may reach anywhere.

With `--layers SRC=a,b+c,d` the top-level modules of SRC are also held to an order: a module
may use only those listed before it (modules joined by `+` share a level and use neither of the
others). Core is laid out that way (#48: util, wire, model, load+analyses, render, share, fleet).

Usage: module-cycles.py [--layers SRC=a,b+c,...] CRATE_SRC_DIR...
       (exit 1 and the cycles or the layer breaches listed when any is found)
"""
import re
import sys
from collections import defaultdict
from pathlib import Path

PATH = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
TEST_DECL = re.compile(r"#\[cfg\(test\)\]\s*((?:#\[[^\]]*\]\s*)*)(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;")
GROUP = re.compile(r"\b(crate|super|self)::\{([^;]*?)\}", re.S)


def module_path(src: Path, file: Path) -> list:
    rel = file.relative_to(src).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return parts


def strip_tests(text: str) -> str:
    """Drops `#[cfg(test)] mod … { … }` blocks and comments."""
    text = re.sub(r"//[^\n]*", "", text)
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*\{", text):
        if m.start() < i:
            continue
        out.append(text[i:m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


def resolve(base: list, head: str, tail: list) -> list:
    if head == "crate":
        return tail
    if head == "self":
        return base + tail
    # super (possibly repeated: super::super::x)
    up = base[:-1]
    while tail and tail[0] == "super":
        up, tail = up[:-1], tail[1:]
    return up + tail


def targets(base: list, text: str):
    for m in GROUP.finditer(text):
        head = m.group(1)
        for item in re.split(r",", m.group(2)):
            segs = [s for s in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", item.split(" as ")[0])]
            if segs:
                yield resolve(base, head, segs)
    for m in PATH.finditer(text):
        yield resolve(base, m.group(1), m.group(2).split("::")[1:])


def edges_of(src: Path) -> dict:
    """parent module -> {(a, b)}: sibling a names sibling b (tests left out)."""
    texts = {f: strip_tests(f.read_text()) for f in src.rglob("*.rs")}
    # Modules declared `#[cfg(test)] mod name;` (and what is below them) are tests; under a
    # `#[path = "…"]` among its attributes the file it names is (relative to the declaring
    # file's folder, as rustc reads it).
    tests, test_files = set(), set()
    for f, text in texts.items():
        for m in TEST_DECL.finditer(text):
            path = re.search(r'#\[path\s*=\s*"([^"]+)"\]', m.group(1))
            if path:
                test_files.add((f.parent / path.group(1)).resolve())
            else:
                tests.add(tuple(module_path(src, f)) + (m.group(2),))
    modules = {
        tuple(module_path(src, f)): text
        for f, text in texts.items()
        if not re.search(r"^#!\[cfg\(test\)\]", text, re.M) and f.resolve() not in test_files
    }
    modules = {m: t for m, t in modules.items() if not any(m[: len(t)] == t for t in tests)}
    known = set(modules)
    edges = defaultdict(set)  # parent -> {(a, b)}
    for mod, text in modules.items():
        for t in targets(list(mod), text):
            # The longest known module the path names (the rest is an item in it).
            while t and tuple(t) not in known:
                t = t[:-1]
            k = 0
            while k < min(len(mod), len(t)) and mod[k] == t[k]:
                k += 1
            if k < len(mod) and k < len(t):
                edges[tuple(mod[:k])].add((mod[k], t[k]))
    return edges


def layer_breaches(src: Path, layers: str) -> list:
    level = {m: i for i, group in enumerate(layers.split(",")) for m in group.split("+")}
    out = []
    for a, b in sorted(edges_of(src).get((), ())):
        if a not in level or b not in level:
            out.append(f"{a} -> {b}: not in the layer list")
        elif level[a] <= level[b]:
            out.append(f"{a} -> {b}: {a} may not use {b} (layers {layers})")
    return out


def cycles(src: Path) -> list:
    edges = edges_of(src)
    found = []
    for parent, es in edges.items():
        graph = defaultdict(set)
        for a, b in es:
            graph[a].add(b)
        for scc in tarjan(graph):
            if len(scc) > 1:
                found.append(("::".join(parent) or "crate", sorted(scc), sorted((a, b) for a, b in es if a in scc and b in scc)))
    return found


def tarjan(graph):
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]
    nodes = set(graph) | {b for bs in graph.values() for b in bs}

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on.discard(w)
                scc.append(w)
                if w == v:
                    break
            out.append(scc)

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main():
    bad = False
    args, layers = sys.argv[1:], {}
    while args and args[0] == "--layers":
        src, _, order = args[1].partition("=")
        layers[src.rstrip("/")] = order
        args = args[2:]
    for src, order in layers.items():
        for breach in layer_breaches(Path(src), order):
            bad = True
            print(f"{src}: {breach}")
    for d in args:
        for parent, scc, es in cycles(Path(d)):
            bad = True
            print(f"{d}: cycle under {parent}: {' <-> '.join(scc)}  ({', '.join(f'{a}->{b}' for a, b in es)})")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
