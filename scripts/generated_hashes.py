#!/usr/bin/env python3
"""Hashes of the code Halide generated for every library of a build, to show a
refactoring changed none of it.

usage: generated_hashes.py BUILD_DIR > hashes.txt
       generated_hashes.py --compare BEFORE.txt AFTER.txt

For each Halide library under BUILD_DIR/schedules (its static archive
<lib>.a), one line per generated part: the header, the lowered loop nest
(.stmt), the device code (CUDA: PTX) and each object of the archive (its members' bytes,
not the archive's, whose header holds dates): "<lib> <part> <sha256>".
--compare prints the libraries whose parts differ, those only one side has,
and "N libraries identical, N differ, N only before, N only after"; it exits
1 when any library present on both sides differs.
"""
import hashlib
import os
import subprocess
import sys
import tempfile


def archive_members(path):
    """(name, bytes) of each member of a static archive, in its order (`ar`, as the build's toolchain)."""
    with tempfile.TemporaryDirectory() as work:
        names = subprocess.run(["ar", "t", path], capture_output=True, text=True, check=True).stdout.split()
        out = []
        for index, name in enumerate(names):
            data = subprocess.run(["ar", "p", path, name], capture_output=True, check=True).stdout
            out.append((f"{index}:{name}", data))
        return out


def library_parts(schedules_dir, lib):
    stem = lib[len("lib"):] if lib.startswith("lib") else lib  # the archive is lib<name>.a, its parts <name>.*
    for suffix in (".h", ".stmt", ".device_code"):
        path = os.path.join(schedules_dir, stem + suffix)
        if os.path.exists(path):
            with open(path, "rb") as f:
                yield suffix[1:], f.read()
    for name, data in archive_members(os.path.join(schedules_dir, lib + ".a")):
        yield "object " + name, data


def hashes(build_dir):
    schedules_dir = os.path.join(build_dir, "schedules")
    libs = sorted(f[:-2] for f in os.listdir(schedules_dir) if f.endswith(".a"))
    for lib in libs:
        parts = list(library_parts(schedules_dir, lib))
        if not any(part == "h" for part, _ in parts):
            raise SystemExit(f"generated_hashes: {lib}: no header beside its archive")
        for part, data in parts:
            print(f"{lib} {part.replace(' ', '_')} {hashlib.sha256(data).hexdigest()}")


def read(path):
    libs = {}
    with open(path) as f:
        for line in f:
            lib, part, digest = line.split()
            libs.setdefault(lib, {})[part] = digest
    return libs


def compare(before_path, after_path):
    before, after = read(before_path), read(after_path)
    same = differ = 0
    for lib in sorted(set(before) & set(after)):
        if before[lib] == after[lib]:
            same += 1
            continue
        differ += 1
        parts = sorted(p for p in set(before[lib]) | set(after[lib]) if before[lib].get(p) != after[lib].get(p))
        print(f"differs: {lib}: {', '.join(parts)}")
    only_before, only_after = sorted(set(before) - set(after)), sorted(set(after) - set(before))
    for lib in only_before:
        print(f"only before: {lib}")
    for lib in only_after:
        print(f"only after: {lib}")
    print(f"{same} libraries identical, {differ} differ, {len(only_before)} only before, {len(only_after)} only after")
    return 1 if differ else 0


def main(argv):
    if len(argv) == 3 and argv[0] == "--compare":
        return compare(argv[1], argv[2])
    if len(argv) == 1:
        hashes(argv[0])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
