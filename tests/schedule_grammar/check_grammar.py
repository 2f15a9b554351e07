#!/usr/bin/env python3
"""The schedule grammar's one reader (filterlab_build/halide_registrations.py, run by the manifest,
filterlab_build/manifest.py) against golden files.

well_formed/: registrations as the schedules write them, and the manifest's
schedules they must give (expected_manifest.json: the manifest's format_version
and schedules); reformatted/: the same registrations
laid out otherwise (spaces, line breaks, comments inside the calls, split
strings, the keywords in another order) on the same lines: the same manifest.
With --all-schedules (FILTERLAB_ALL_SCHEDULES) the same manifest, every
schedule built. ill_formed/schedules/box/*.cpp: one mistake each, and on its
first line, "// expect: <file>:<line>: <what>", the one line the reader must
stop with. Then the register cap's sweeps (<filter>/cuda_<name>:max_registers), the
build options' mistakes (FILTERLAB_SWEEPS, FILTERLAB_SHAPES, a compile-time
parameter), the names of a sweep point's, a words twin's and a shape twin's
libraries, the point spelling's cases (points.json: the same cases the C++
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
READER = [sys.executable, "-m", "filterlab_build.manifest"]
OPTIONS = ["--sweeps", "box/cpu_sliding", "--compile-time", "median:size=3,5,7"]
NO_SUCH = "no such schedule (<filter>/<target>_<schedule>, as cpu_tiled, cuda_tile, tvm_rows8)"


def read(case, options, sources=None):
    """(status, manifest or None, stderr) of the manifest over one case's sources."""
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


def schedules_of(manifest):
    """What the golden file holds of a manifest: the registrations as read, not the variants built of them."""
    return {k: manifest[k] for k in ("format_version", "schedules")} if manifest else None


def check_variants(failures):
    """The names and generator parameters the manifest derives for the variants built of well_formed/: a sweep
    point's library, a CUDA library's shape twin (none on OpenCL), an autoschedule's key per compile-time value."""
    status, manifest, error = read("well_formed", OPTIONS + ["--shapes", "1920x1080"])
    check(failures, "variants: status", (status, error), (0, ""))
    variants = {(v["filter"], v["variant"]): v for v in manifest["variants"]} if manifest else {}
    point = variants.get(("box", "cpu_sliding[rows=16+vectors=1]"), {"libraries": [{}], "archives": [{}]})
    names = ("name", "file", "header", "entry_point")
    check(failures, "a sweep point's library", {k: point["libraries"][0].get(k) for k in names},
          {"name": "box_cpu_sliding__rows16_vectors1", "file": "libbox_cpu_sliding__rows16_vectors1.a",
           "header": "filterlab/halide/box_cpu_sliding__rows16_vectors1.h",
           "entry_point": "filterlab::halide::box_cpu_sliding__rows16_vectors1"})
    check(failures, "a sweep point's generator parameters", point["archives"][0].get("recipe", {}).get("params"),
          ["schedule=cpu_sliding", "point=rows:16+vectors:1"])
    libraries = lambda name: [lib["name"] for lib in variants.get(("median", name), {"libraries": []})["libraries"]]
    check(failures, "a CUDA variant's libraries and shape twins", libraries("cuda_tile"),
          [f"median_cuda_tile_size{k}{shape}" for k in (3, 5, 7) for shape in ("", "_1920x1080")])
    check(failures, "an OpenCL variant's libraries", libraries("opencl_tile"),
          [f"median_opencl_tile_size{k}" for k in (3, 5, 7)])
    auto = variants.get(("median", "cpu_auto_adams2019"), {"archives": []})
    check(failures, "an autoschedule's key per compile-time value", [a["recipe"]["params"] for a in auto["archives"]],
          [["schedule=cpu_auto_adams2019_size3", "size=3"], ["schedule=cpu_auto_adams2019_size7", "size=7"]])


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
        check(failures, sweep, (status, error), (1, f"manifest: FILTERLAB_SWEEPS: {sweep}: not "
                                                    "<filter>/<cuda|tvm>_<schedule>:max_registers of a GPU schedule"))


def main():
    failures = []
    golden = os.path.join(HERE, "expected_manifest.json")
    status, manifest, error = read("well_formed", OPTIONS)
    check(failures, "well_formed: status", (status, error), (0, ""))
    if "--update" in sys.argv:
        with open(golden, "w") as f:
            f.write(json.dumps(schedules_of(manifest), indent=1) + "\n")
    expected = json.load(open(golden))
    check(failures, "well_formed: the manifest", schedules_of(manifest), expected)
    check(failures, "reformatted: the manifest", schedules_of(read("reformatted", OPTIONS)[1]), expected)
    # The default build is the frontier: schedules and frozen points without FRONTIER are left out, never an autoschedule.
    built = {(s["backend"], s["name"]): s["built"] for s in expected["schedules"]}
    check(failures, "well_formed: left out by default", sorted(k for k, b in built.items() if not b),
          [("cpu", "sliding_rows16"), ("gpu", "ranged"), ("gpu", "register_block"), ("gpu", "rows8"), ("gpu", "words")])
    everything = schedules_of(read("well_formed", OPTIONS + ["--all-schedules"])[1])
    for s in everything["schedules"] if everything else []:
        s["built"] = not s["built"] if not built[(s["backend"], s["name"])] else s["built"]
    check(failures, "--all-schedules: the manifest, the schedules left out built", everything, expected)

    cases = sorted(glob.glob(os.path.join(HERE, "ill_formed", "schedules", "box", "*.cpp")))
    for path in cases:
        want = open(path).readline().strip().removeprefix("// expect: ")
        status, _, error = read("ill_formed", [], [os.path.relpath(path, os.path.join(HERE, "ill_formed"))])
        check(failures, os.path.basename(path), (status, error), (1, "manifest: " + want))

    for options, want in [  # (the median's autoschedules need its compile-time parameter: OPTIONS give it)
        (["--sweeps", "box/cpu_nope"], f"FILTERLAB_SWEEPS: box/cpu_nope: {NO_SUCH}"),
        (["--sweeps", "box/cpu_naive"], "FILTERLAB_SWEEPS: box/cpu_naive declares no axes"),
        (["--sweeps", "box/opencl_ranged"], f"FILTERLAB_SWEEPS: box/opencl_ranged: {NO_SUCH}"),
        (["--sweeps", "box/cpu_sliding,box/cpu_sliding"],
         "FILTERLAB_SWEEPS: box/cpu_sliding: named twice (its axes, or :max_registers, not both)"),
        (["--shapes", "1920x1080,0x4"], "FILTERLAB_SHAPES: '0x4' is not WIDTHxHEIGHT (each 1..65536), as in 3840x2160, "
                                        "nor aligned"),
        (["--compile-time", "median:size=5,7"], "schedules/median/median_cuda.cpp:9: size is fixed at compile time: "
                                                "SUPPORTS may name some of [5, 7] only"),
    ]:
        status, _, error = read("well_formed", OPTIONS[2:] + options if "--compile-time" not in options else options)
        check(failures, " ".join(options), (status, error), (1, "manifest: " + want))

    check_launch_sweeps(failures)
    check_variants(failures)
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
