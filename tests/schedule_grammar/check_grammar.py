#!/usr/bin/env python3
"""The schedule grammar's one reader (filterlab_build/schedule_manifest.py) against golden files.

well_formed/: registrations as the schedules write them, and the manifest
they must give (expected_manifest.json); reformatted/: the same registrations
laid out otherwise (spaces, line breaks, comments inside the calls, split
strings, the keywords in another order) on the same lines: the same manifest.
With --all-schedules (FILTERLAB_ALL_SCHEDULES) the same manifest, every
schedule built. ill_formed/schedules/box/*.cpp: one mistake each, and on its
first line, "// expect: <file>:<line>: <what>", the one line the reader must
stop with. Then the register cap's sweeps (<filter>/cuda_<name>:max_registers), the
build options' mistakes (FILTERLAB_SWEEPS, a compile-time
parameter), the point spelling's cases (points.json: the same cases the C++
reader, runtime/base/schedule_point.h, is tested on in tests/test_registry.cpp)
and algorithm types' runtime names.

usage, from the source tree (the import root of filterlab_build, as CTest sets it; absolute,
the reader runs in each case's folder):
    PYTHONPATH=$PWD python3 tests/schedule_grammar/check_grammar.py [--update]
(--update rewrites expected_manifest.json from well_formed/: review its diff)
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

from filterlab_build.schedule_grammar import GrammarError, algorithm_key, point_forms, read_point

HERE = os.path.dirname(os.path.abspath(__file__))
READER = [sys.executable, "-m", "filterlab_build.schedule_manifest"]
OPTIONS = ["--sweeps", "box/cpu_sliding", "--compile-time", "median:size=3,5,7"]


def read(case, options, sources=None):
    """(status, manifest or None, stderr) of the reader over one case's sources."""
    root = os.path.join(HERE, case)
    if sources is None:
        sources = sorted(os.path.relpath(p, root) for p in glob.glob(f"{root}/schedules/**/*.*", recursive=True))
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "manifest.json")
        run = subprocess.run([*READER, "--source-dir", root, "--out", out, *options, *sources],
                             cwd=root, capture_output=True, text=True)
        manifest = json.load(open(out)) if run.returncode == 0 else None
    return run.returncode, manifest, run.stderr.strip()


def check(failures, what, got, expected):
    if got == expected:
        return
    if isinstance(got, dict) and isinstance(expected, dict) and "schedules" in got and "schedules" in expected \
            and len(got["schedules"]) == len(expected["schedules"]):  # a manifest: the entries that differ
        for g, e in zip(got["schedules"], expected["schedules"]):
            check(failures, f"{what}: {e['filter']}/{e['backend']}_{e['name']}", g, e)
        check(failures, f"{what}: format_version", got["format_version"], expected["format_version"])
        return
    failures.append(f"{what}:\n  got      {got}\n  expected {expected}")


def check_points(failures):
    """The Python reader of a point's spelling on the cases the C++ one is tested on."""
    cases = json.load(open(os.path.join(HERE, "points.json")))
    for text, parameter, tag in cases["good"]:
        try:
            forms = point_forms(read_point(text, "points.json"))
            check(failures, f"point '{text}'", (forms["text"], forms["parameter"], forms["tag"]), (text, parameter, tag))
        except GrammarError as e:
            failures.append(f"point '{text}': refused: {e}")
    for text, error in cases["bad"]:
        try:
            read_point(text, "points.json")
            failures.append(f"point '{text}': read, expected refused ({error})")
        except GrammarError as e:
            check(failures, f"point '{text}'", str(e), f"points.json: point '{text}': {error}")


def check_launch_sweeps(failures):
    """<filter>/cuda_<name>:max_registers sweeps the register cap alone at a GPU schedule's or frozen point's point."""
    caps = [64, 96, 128, 168, 255]
    for name, fixed in [("box/cuda_ranged", "warps=4"), ("box/cuda_words_t64", "threads=64+rows=4")]:
        status, manifest, error = read("well_formed", ["--compile-time", "median:size=3,5,7", "--sweeps",
                                                       name + ":max_registers"])
        check(failures, f"{name}:max_registers: status", (status, error), (0, ""))
        entry = next(s for s in manifest["schedules"] if f"box/cuda_{s['name']}" == name) if manifest else {}
        check(failures, f"{name}:max_registers: its points", [p["text"] for p in entry.get("sweep", [])],
              [f"{fixed}+max_registers={c}" for c in caps])
    for sweep in ["box/cpu_naive:max_registers", "box/cuda_ranged:warps"]:
        status, _, error = read("well_formed", ["--compile-time", "median:size=3,5,7", "--sweeps", sweep])
        check(failures, sweep, (status, error), (1, f"schedule_manifest: FILTERLAB_SWEEPS: {sweep}: not "
                                                    "<filter>/cuda_<schedule>:max_registers of a GPU schedule"))


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
    # The default build is the frontier: schedules and frozen points without FRONTIER are left out, never an autoschedule.
    built = {(s["backend"], s["name"]): s["built"] for s in expected["schedules"]}
    check(failures, "well_formed: left out by default", sorted(k for k, b in built.items() if not b),
          [("cpu", "sliding_rows16"), ("gpu", "ranged"), ("gpu", "register_block"), ("gpu", "rows8"), ("gpu", "words")])
    everything = read("well_formed", OPTIONS + ["--all-schedules"])[1]
    for s in everything["schedules"] if everything else []:
        s["built"] = not s["built"] if not built[(s["backend"], s["name"])] else s["built"]
    check(failures, "--all-schedules: the manifest, the schedules left out built", everything, expected)

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
        (["--compile-time", "median:size=5,7"], "schedules/median/median_cuda.cpp:9: size is fixed at compile time: "
                                                "SUPPORTS may name some of [5, 7] only"),
    ]:
        status, _, error = read("well_formed", options)
        check(failures, " ".join(options), (status, error), (1, "schedule_manifest: " + want))

    check_launch_sweeps(failures)
    check_points(failures)
    for type_name, key in [("Direct", "direct"), ("RunningSums", "running_sums"), ("ColumnsFirstU16", "columns_first_u16"),
                           ("ColumnsFirstDot", "columns_first_dot"), ("SymmetricScatter", "symmetric_scatter"),
                           ("LaneRunningSums", "lane_running_sums")]:
        check(failures, f"algorithm_key({type_name})", algorithm_key(type_name), key)

    for failure in failures:
        print(failure, file=sys.stderr)
    print(f"schedule grammar: {len(cases)} ill-formed cases, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
