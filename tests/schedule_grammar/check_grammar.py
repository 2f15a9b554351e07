#!/usr/bin/env python3
"""The schedule grammar's one reader (scripts/schedule_manifest.py) against golden files.

well_formed/: registrations as the schedules write them, and the manifest
they must give (expected_manifest.json); reformatted/: the same registrations
laid out otherwise (spaces, line breaks, comments inside the calls, split
strings, the keywords in another order) on the same lines: the same manifest.
ill_formed/schedules/box/*.cpp: one mistake each, and on its first line,
"// expect: <file>:<line>: <what>", the one line the reader must stop with.
Then the build options' mistakes (FILTERLAB_SWEEPS, FILTERLAB_OPENCL_REFUSED,
a compile-time parameter). usage: check_grammar.py [--update] (rewrites
expected_manifest.json from well_formed/: review its diff)
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
READER = os.path.join(HERE, "..", "..", "scripts", "schedule_manifest.py")
OPTIONS = ["--sweeps", "box/cpu_sliding", "--opencl-refused", "box/rows8", "--compile-time", "median:size=3,5,7"]


def read(case, options, sources=None):
    """(status, manifest or None, stderr) of the reader over one case's sources."""
    root = os.path.join(HERE, case)
    if sources is None:
        sources = sorted(os.path.relpath(p, root) for p in glob.glob(f"{root}/schedules/**/*.*", recursive=True))
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "manifest.json")
        run = subprocess.run([sys.executable, READER, "--source-dir", root, "--out", out, *options, *sources],
                             cwd=root, capture_output=True, text=True)
        manifest = json.load(open(out)) if run.returncode == 0 else None
    return run.returncode, manifest, run.stderr.strip()


def check(failures, what, got, expected):
    if got != expected:
        failures.append(f"{what}:\n  got      {got}\n  expected {expected}")


def main():
    failures = []
    golden = os.path.join(HERE, "expected_manifest.json")
    status, manifest, error = read("well_formed", OPTIONS)
    check(failures, "well_formed: status", (status, error), (0, ""))
    if "--update" in sys.argv:
        with open(golden, "w") as f:
            f.write(json.dumps(manifest, indent=1) + "\n")
    expected = json.load(open(golden))
    check(failures, "well_formed: the manifest", manifest, expected)
    check(failures, "reformatted: the manifest", read("reformatted", OPTIONS)[1], expected)

    cases = sorted(glob.glob(os.path.join(HERE, "ill_formed", "schedules", "box", "*.cpp")))
    for path in cases:
        want = open(path).readline().strip().removeprefix("// expect: ")
        status, _, error = read("ill_formed", [], [os.path.relpath(path, os.path.join(HERE, "ill_formed"))])
        check(failures, os.path.basename(path), (status, error), (1, "schedule_manifest: " + want))

    for options, want in [
        (["--sweeps", "box/cpu_nope"], "FILTERLAB_SWEEPS: box/cpu_nope: no such schedule (<filter>/<backend>_<schedule>)"),
        (["--sweeps", "box/cpu_naive"], "FILTERLAB_SWEEPS: box/cpu_naive declares no axes"),
        (["--sweeps", "box/opencl_ranged"],
         "FILTERLAB_SWEEPS: box/opencl_ranged: no such schedule (<filter>/<backend>_<schedule>)"),
        (["--opencl-refused", "box/naive"], "FILTERLAB_OPENCL_REFUSED: box/naive is not a GPU schedule (<filter>/<schedule>)"),
        (["--compile-time", "median:size=5,7"], "schedules/median/median_cuda.cpp:9: size is fixed at compile time: "
                                                "SUPPORTS may name some of [5, 7] only"),
    ]:
        status, _, error = read("well_formed", options)
        check(failures, " ".join(options), (status, error), (1, "schedule_manifest: " + want))

    for failure in failures:
        print(failure, file=sys.stderr)
    print(f"schedule grammar: {len(cases)} ill-formed cases, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
