#!/usr/bin/env python3
"""The static instruction mix of PTX kernels: per file, how many instructions
of each kind its entry holds (global loads and stores, shuffles, byte and
half-word SIMD, min/max, integer arithmetic...). Writes a Markdown table to
stdout. A static count: what the compiler emitted, not what ran.

usage: ptx_mix.py FILE.ptx|FILE.bin ...
"""
import collections
import os
import re
import sys

CLASSES = [
    ("ld.global", r"^ld\.global"),
    ("ld.local/st.local (spills, private arrays)", r"^(ld|st)\.local"),
    ("st.global", r"^st\.global"),
    ("shfl", r"^shfl"),
    ("min/max (16x2 or 8x4 SIMD)", r"^(min|max)\.[us]16x2|^v(min|max)[24]?"),
    ("min/max (scalar)", r"^(min|max)\.[us](8|16|32)\b"),
    ("prmt/byte moves", r"^(prmt|bfe|bfi|cvt\.u8|cvt\.u16|cvt\.u32\.u8|cvt\.u32\.u16|and\.b16)"),
    ("arithmetic (add/sub/mul/mad/shf/shl/shr)", r"^(add|sub|mul|mad|shf|shl|shr)"),
    ("branches", r"^(bra|@)"),
]


def instructions(text):
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("//", ".", "{", "}", "$")) or line.endswith(":"):
            continue
        if line.startswith("@"):  # predicated: count the instruction after the guard
            parts = line.split(None, 1)
            line = parts[1] if len(parts) > 1 else line
        yield line.split()[0].rstrip(";")


def main(paths):
    print("| file | instructions | " + " | ".join(name for name, _ in CLASSES) + " |")
    print("| --- |" + " ---: |" * (len(CLASSES) + 1))
    for path in paths:
        counts, total = collections.Counter(), 0
        for op in instructions(open(path, errors="replace").read()):
            total += 1
            for name, pattern in CLASSES:
                if re.match(pattern, op):
                    counts[name] += 1
                    break
        print(f"| `{os.path.basename(path)}` | {total} | " + " | ".join(str(counts[n]) for n, _ in CLASSES) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
