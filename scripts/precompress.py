#!/usr/bin/env python3
"""Writes <file>.gz (gzip -9) and, when the brotli CLI is installed, <file>.br (quality 11)
next to every text and wasm asset of a built dist folder, its subfolders too, for nginx's gzip_static and
brotli_static (and the simulator's static server). Deterministic: no timestamps or names in
the gzip header.

  python3 scripts/precompress.py dist [dist-fluxlens …]"""
import gzip, os, shutil, subprocess, sys

EXTS = (".wasm", ".js", ".css", ".html", ".svg", ".json")

def compress(path):
    """Writes path.gz and, with the brotli CLI, path.br."""
    data = open(path, "rb").read()
    with open(path + ".gz", "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=f, mtime=0) as z:
            z.write(data)
    brotli = shutil.which("brotli")
    if brotli:
        subprocess.run([brotli, "-q", "11", "-f", "-o", path + ".br", path], check=True)


def main(dirs):
    for d in dirs:
        for folder, _, names in sorted(os.walk(d)):
            for name in sorted(names):
                if name.endswith(EXTS):
                    compress(os.path.join(folder, name))
    brotli = shutil.which("brotli")
    print("precompressed:", ", ".join(dirs), "(gzip" + (" + brotli)" if brotli else " only: no brotli CLI)"))

if __name__ == "__main__":
    main(sys.argv[1:] or ["dist"])
