#!/usr/bin/env python3
"""Fails when a function is longer than a screen or two (#48: 150 lines at most).

A function runs from its `fn` line to the closing brace at the same indentation; declarations
without a body (traits, `extern` blocks) are skipped. Usage: long-functions.py DIR...
"""
import re
import sys
from pathlib import Path

LIMIT = 150
FN = re.compile(r"^(\s*)(?:pub(?:\([^)]*\))? )?(?:const )?(?:async )?(?:unsafe )?fn (\w+)")


def long_functions(root: Path):
    for path in sorted(root.rglob("*.rs")):
        if "target" in path.parts:
            continue
        lines = path.read_text().split("\n")
        for i, line in enumerate(lines):
            m = FN.match(line)
            if not m:
                continue
            indent, name = m.group(1), m.group(2)
            # The signature ends at the first `{` (a body) or `;` (a declaration).
            j = i
            while j < len(lines) and "{" not in lines[j] and not lines[j].rstrip().endswith(";"):
                j += 1
            if j >= len(lines) or "{" not in lines[j]:
                continue
            if lines[j].rstrip().endswith("}") and lines[j].count("{") == lines[j].count("}"):
                continue  # a one-line body
            end = j + 1
            while end < len(lines) and lines[end].rstrip() != indent + "}":
                end += 1
            if end - i + 1 > LIMIT:
                yield path, i + 1, name, end - i + 1


def main():
    found = [f for d in sys.argv[1:] for f in long_functions(Path(d))]
    for path, line, name, n in found:
        print(f"{path}:{line}: fn {name} is {n} lines (at most {LIMIT})")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
