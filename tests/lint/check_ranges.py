#!/usr/bin/env python3
"""The contract's ranges are stated once (issue 55): runtime/base/contract_ranges.h
owns them, and every layer reads them there (C++ and CUDA include it;
generators/tvm/plane.py's contract_range and schedules/CMakeLists.txt read
it). This check fails where the box's largest radius (kBoxMaxRadius, read
from the owner) is written again as a literal in code that implements the
contract: the folders IMPLEMENTING, comments left out (check_history.py's
reading of comments), strings and code read.

What it catches, line by line: a word naming the radius (radius, radii,
kSomethingRadius, any case) and the bound with at most 20 characters between
them that are not letters (the variable `r` aside) — `radius <= 15`,
`radius{"radius", 1, 1, 15}`, `kMaxRadius = 15`, `{"radius": [7, 15]}`,
`"radius=1..15"`, `15; r++) radii` —, the same with `range(1, 16)`, `r` or `R`
compared with the bound (`r == 15`), and, anywhere on a line naming the
radius, a range ending at the bound ("the radius must be in 1..15") or a
maximum set to it (`.name = "radius", .min = 1, .max = 15`). What it
does not: the bound with other prose between (`radius 7 and 15`, a
description), a line that does not name the radius
(`make_index_sequence<15>`), comments, the other ranges (median sizes,
NL-means' patch and search, sigma and h: their literals are fewer and findable
by their owner's names), and tests/, scripts/ and SPARED, whose values of r
are rows to run, parse or rank, not the bound.

usage: check_ranges.py ROOT"""
import pathlib
import re
import sys

import check_history  # beside this file: its reading of comments

OWNER = "runtime/base/contract_ranges.h"
IMPLEMENTING = ("handwritten", "runtime", "generators", "schedules", "cmake", "filterlab_build")
# Files whose radii are values, not the bound.
SPARED = {
    "runtime/core/default_rankings.inc",  # written by scripts/fastest_variants.py: the parameters a ranking was timed at
}
# Files that still write the bound and are not this change's to edit: each
# must still hold a finding (once it reads the owner, take it out of here).
PENDING = {}


def owner_bound(root):
    """kBoxMaxRadius as the owner states it."""
    m = re.search(r"^constexpr int kBoxMaxRadius = (\d+);", (root / OWNER).read_text(), re.M)
    if not m:
        raise SystemExit(f"check_ranges: {OWNER} states no kBoxMaxRadius")
    return int(m[1])


def rules(bound):
    """The regular expressions of a line that writes `bound` as the radius's."""
    number = rf"(?:(?<![\w.])|(?<=\.\.)){bound}(?!\w|\.\d)"  # 15, 1..15; not 0.15, 150, 0x15
    upto = rf"range\(\s*\d+\s*,\s*{bound + 1}\s*\)"            # range(1, 16)
    gap = r"(?:[^A-Za-z\n]|\b[rR]\b){0,20}?"                   # no prose between: symbols, digits, r
    radius = r"(?i:radi(?:us|i))"
    return [re.compile(rf"{radius}{gap}(?:{number}|{upto})"),
            re.compile(rf"{number}{gap}{radius}"),
            re.compile(rf"\b[rR]\s*(?:<=|==|<|>=|>|!=)\s*{number}"),
            # On a line naming the radius, anywhere: a range ending at the bound, a maximum set to it.
            re.compile(rf"^(?=.*{radius}).*\d\.\.{bound}(?!\w|\.\d)"),
            re.compile(rf"^(?=.*{radius}).*(?i:max)\w*\s*[=:]\s*{number}")]


def code_lines(path, text):
    """(line number, text) of the file's lines, comments blanked."""
    lines = text.split("\n")
    for number, comment in check_history.comments(path, text):
        if 0 < number <= len(lines) and comment:
            lines[number - 1] = lines[number - 1].replace(comment, " " * len(comment), 1)
    return enumerate(lines, 1)


def findings(path, text, bound):
    """(line, code) of each line of code that writes the bound."""
    found = []
    for number, line in code_lines(path, text):
        if any(rule.search(line) for rule in rules(bound)):
            found.append((number, line.strip()))
    return found


def code_files(root):
    if (root / "CMakeLists.txt").is_file():
        yield root / "CMakeLists.txt"
    for folder in IMPLEMENTING:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and path.relative_to(root).as_posix() not in SPARED | {OWNER} and (
                    path.suffix in check_history.C_LIKE | check_history.HASH | {".py"}
                    or path.name == "CMakeLists.txt"):
                yield path


def self_check():
    """The rule catches what it is for and spares what is safe."""
    P = pathlib.PurePath
    bad = [
        (P("g.cpp"), 'Input<int32_t> radius{"radius", 1, 1, 15};\n'),
        (P("g.cpp"), 'add_requirement(radius >= 1 && radius <= 15, "box: radius must be in 1..15, got ", radius);\n'),
        (P("g.h"), "constexpr int kLaneMaxRadius = 15;\n"),
        (P("k.cpp"), 'for (int r = 1; r <= 15; r++) radii.push_back({{"radius", double(r)}});\n'),
        (P("k.cpp"), "    return r <= 2 || r == 5 || r == 15;\n"),
        (P("k.cu"), 'p.output.specialize_fail("box/lanes: the radius must be in 1..15");\n'),
        (P("s.py"), 'RADII = {"radius": range(1, 16)}\n'),
        (P("s.py"), 'SUMS_RADII = {"radius": [7, 15]}  # the verdict\'s\n'),
        (P("CMakeLists.txt"), "set(BOX_RADII 1..15)\n"),
        (P("f.cpp"), '.params = {{.name = "radius", .default_value = 1, .min = 1, .max = 15,\n'),
    ]
    good = [
        (P("k.cu"), "// the neighbouring lanes (r <= 15 < 16): the largest radius, 15\n"),
        (P("k.cu"), "for (int r = kBoxMinRadius; r <= kBoxMaxRadius; r++) radii.push_back({{\"radius\", r}});\n"),
        (P("k.cu"), 'FRONTIER("fastest Halide CUDA box at radius 7 and 15 in the one run")\n'),
        (P("k.cu"), 'static_assert(kBoxMaxRadius < 16, "the next lane holds 16 columns");\n'),
        (P("k.cu"), "const int word = (k & 15) >> 2;  // no radius here\n"),
        (P("k.cpp"), "const double scale = 0.15 * radius;\n"),
        (P("k.cpp"), "const int radius = 150;\n"),
        (P("f.cpp"), '.params = {{.name = "radius", .default_value = 1, .min = kBoxMinRadius, .max = kBoxMaxRadius,\n'),
        (P("s.py"), '"""Radius 15 is the largest (a docstring)."""\nx = 1\n'),
        (P("s.py"), 'RADII = {"radius": range(contract_range("kBoxMinRadius"), BOX_MAX_RADIUS + 1)}\n'),
    ]
    for path, text in bad:
        assert findings(path, text, 15), f"not caught: {path}: {text!r}"
    for path, text in good:
        assert not findings(path, text, 15), f"caught wrongly: {path}: {text!r}: {findings(path, text, 15)}"


def main():
    self_check()
    if len(sys.argv) != 2:
        print("usage: check_ranges.py ROOT", file=sys.stderr)
        return 2
    root = pathlib.Path(sys.argv[1])
    bound = owner_bound(root)
    failed = False
    pending_found = set()
    for path in code_files(root):
        rel = path.relative_to(root).as_posix()
        for n, code in findings(path, path.read_text(errors="replace"), bound):
            if rel in PENDING:
                pending_found.add(rel)
                print(f"{rel}:{n}: (pending: should read {PENDING[rel]}) {code}")
            else:
                failed = True
                print(f"{rel}:{n}: the box's largest radius written again (read kBoxMaxRadius, {OWNER}): {code}")
    for rel in sorted(set(PENDING) - pending_found):
        failed = True
        print(f"{rel}: no longer writes the bound: take it out of PENDING in tests/lint/check_ranges.py")
    if failed:
        return 1
    print(f"check_ranges: the box's largest radius ({bound}) is written only in {OWNER}"
          + (f" (and {len(PENDING)} pending file)" if PENDING else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
