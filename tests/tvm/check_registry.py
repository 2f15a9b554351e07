"""The TVM schedules' spaces without a GPU: what FILTERLAB_SWEEPS makes of a
registration's axes (the manifest's variants, filterlab_build/manifest.py), the one
spelling of a point, the refusals, and the register cap written into TVM's CUDA C.

    PYTHONPATH=. .venv/bin/python tests/tvm/check_registry.py      (CTest: tvm_registry)
"""
import subprocess
import sys
from pathlib import Path

from filterlab_build import cuda_source, manifest, tvm_registry
from filterlab_build.schedule_grammar import GrammarError

ROOT = Path(__file__).resolve().parent.parent.parent
FAILED = []


def expect(ok, what):
    print(f"{'ok  ' if ok else 'FAIL'} {what}")
    if not ok:
        FAILED.append(what)


def tvm_manifest(sweeps):
    """The TVM schedules of the build's manifest of the real tree with FILTERLAB_SWEEPS `sweeps`, each with its
    variants, as {(filter, name): entry}."""
    sources = [str(p) for pattern in ("schedules/*/*.cpp", "schedules/*/auto/*.schedule.h")
               for p in sorted(ROOT.glob(pattern))]
    args = manifest.arguments(["--source-dir", str(ROOT), "--out", "/dev/null", "--sweeps", ",".join(sweeps),
                               "--shapes", "1920x1080,aligned", "--compile-time", "median:size=3,5,7", *sources])
    result, _ = manifest.manifest(args)
    entries = {(e["filter"], e["name"]): dict(e) for e in result["schedules"] if e["language"] == "tvm"}
    for e in entries.values():
        e["variant_entries"] = [v for v in result["variants"] if (v["language"], v["filter"], v["schedule"]) ==
                                ("tvm", e["filter"], e["name"])]
    return entries


def refused(sweeps):
    try:
        tvm_manifest(sweeps)
    except GrammarError as e:
        return str(e)
    return ""


def check_sweep():
    entries = tvm_manifest(["gaussian/tvm_rows8"])
    rows8 = entries[("gaussian", "rows8")]
    variants = rows8["variant_entries"]
    points = variants[1:]
    size = 1
    for a in rows8["axes"]:
        size *= len(a["values"])
    expect(len(rows8["sweep"]) == len(points) == size, f"gaussian/tvm_rows8: {len(points)} points, its axes' product")
    expect(variants[0]["variant"] == "tvm_rows8" and variants[0]["origin"] == "schedule",
           "the registered default comes first, as tvm_rows8")
    expect(all(p["variant"] == f"tvm_rows8[{p['point']['text']}]" and p["origin"] == "sweep_point" for p in points),
           "each point is tvm_rows8[a=1+b=2], origin sweep_point")
    default = "+".join(f"{a['name']}={a['default']}" for a in rows8["axes"])
    expect(variants[0]["point"]["text"] == default and default in [p["point"]["text"] for p in points],
           f"the default point ({default}) is one of the sweep's")
    libraries = [lib["name"] for v in variants for lib in v["libraries"]]
    archives = [a["target"] for v in variants for a in v["archives"]]
    expect(len(set(libraries)) == len(libraries) and len(set(archives)) == len(archives) == len(variants),
           "every point has its own library and archive")
    expect(all(lib["name"] == "tvm_" + lib["archive"].removeprefix("filterlab_").replace("_tvm_", "_", 1)
               and lib["entry_point"] == "filterlab_" + lib["name"] and lib["file"] == f"lib{lib['archive']}.a"
               for p in points for lib in p["libraries"]),
           "a point's library is its archive's (one stem names both), its launcher filterlab_<library>")
    expect("sweep" not in entries[("gaussian", "interior16")], "a schedule not named is not swept")


def check_launch_sweep():
    long_runs = tvm_manifest(["box/tvm_running_sums_long:max_registers"])[("box", "running_sums_long")]
    frozen = long_runs["variant_entries"][0]["point"]["text"]
    caps = [p["point"]["text"] for p in long_runs["variant_entries"][1:]]
    expect(long_runs["origin"] == "frozen_point" and "run=16" in frozen.split("+"),
           f"tvm_running_sums_long is a frozen point ({frozen})")
    expect(caps == [f"{frozen}+max_registers={v}" for v in tvm_registry.LAUNCH["values"]],
           "<filter>/tvm_<name>:max_registers sweeps the register cap alone, at its point")
    text, _, _ = cuda_source.lower({"a": one_thread_a_word(128), "b": one_thread_a_word(1024)}, 128)
    expect("__maxnreg__(128) a_kernel" in text and "__maxnreg__(64) b_kernel" in text
           and "__launch_bounds__" not in text,
           "TVM's attribute writes the cap in place of __launch_bounds__, lowered to what 1024 threads allow")


def one_thread_a_word(threads):
    """A kernel of one block of `threads` threads, each writing its index."""
    from tvm.script import tirx as T

    @T.prim_func
    def kernel(a: T.Buffer((threads,), "int32")):
        for i in T.thread_binding(threads, thread="threadIdx.x"):
            a[i] = i
    return kernel


def check_refusals(registry):
    for sweeps, why in ((["gaussian/tvm_no_such"], "no such schedule"),
                        (["gaussian/tvm_rows8:tile"], "not <filter>/<cuda|tvm>_<schedule>:max_registers"),
                        (["gaussian/tvm_rows8", "gaussian/tvm_rows8:max_registers"], "named twice"),
                        (["gaussian/tvm_rows8_r128"], "a frozen point sweeps its register cap alone"),
                        (["gaussian/tvm_interior16"], "declares no axes")):
        expect(why in refused(sweeps), f"FILTERLAB_SWEEPS={','.join(sweeps)} refused ({why})")
    expect(refused(["box/cpu_sliding", "gaussian/tvm_rows8"]) == "" and refused(["all"]) == "",
           "one reader takes the names of both languages, and 'all'")
    rows8 = next(s for s in registry if (s.filter, s.name) == ("gaussian", "rows8"))
    for point in ("rows=3", "tile=4", "rows=4,vector=2", "max_registers=100"):
        try:
            rows8.at(point)
            expect(False, f"point {point} refused")
        except Exception as e:  # GrammarError or ValueError: the one message of a bad point
            expect("tvm_rows8" in str(e), f"point {point} refused: {e}")
    try:
        tvm_registry.tvm_frozen("gaussian", "x", "no_such", "rows=4", why="a test")
        expect(False, "tvm_frozen of an unknown base refused")
    except ValueError:
        expect(True, "tvm_frozen of an unknown base refused")
    check_algorithm_arguments(registry)
    run = subprocess.run([sys.executable, "-m", "filterlab_build.tvm_generate", "--schedule", "gaussian/rows8",
                          "--point", "rows=3", "--out", "/dev/null"], capture_output=True, text=True)
    lines = run.stderr.strip().splitlines()
    expect(run.returncode != 0 and len(lines) == 1 and lines[0].startswith("tvm_generate: "),
           "tvm_generate --point outside the axes: one error line, non-zero status")


def check_algorithm_arguments(registry):
    """An algorithm's constructor arguments: the registration's args, the library's compiled values, the point's
    algorithm axes, in that order; a registration that names an argument twice, or one its algorithm does not
    take, is refused where it is written."""
    from generators.tvm import median
    pairs = next(s for s in registry if (s.filter, s.name) == ("median", "register_block_pairs_2x4"))
    expect(pairs.algorithm_arguments({"size": 3}) == {"bits": 16, "pairs": "cuda", "size": 3, "tile_x": 2,
                                                       "tile_y": 4},
           "register_block_pairs_2x4's arguments: its args, its compiled size, its point's tile")
    before = len(tvm_registry.REGISTRY)

    def body(sch, alg):
        pass
    for kwargs, why in (({"args": {"size": 3}, "compiled": {"size": [3]}}, "which compiled= or algorithm_axes= gives"),
                        ({"args": {"tyle_x": 4}}, "Direct is not built so")):
        try:
            tvm_registry.tvm_schedule("median", median.Direct, why="a test", **kwargs)(body)
            expect(False, f"registration with {kwargs} refused")
        except ValueError as e:
            expect(why in str(e) and "check_registry.py" in str(e), f"registration with {kwargs} refused: {e}")
    expect(len(tvm_registry.REGISTRY) == before, "a refused registration registers nothing")


def main():
    registry = tvm_registry.load_registry(ROOT)
    check_sweep()
    check_launch_sweep()
    check_refusals(registry)
    sys.exit(1 if FAILED else 0)


if __name__ == "__main__":
    main()
