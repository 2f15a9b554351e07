"""The TVM schedules' spaces without a GPU: what FILTERLAB_SWEEPS makes of a
registration's axes (filterlab_build/tvm_generate.py --manifest), the one spelling
of a point, the refusals, and the register cap written into TVM's CUDA C.

    PYTHONPATH=. .venv/bin/python tests/tvm/check_registry.py      (CTest: tvm_registry)
"""
import subprocess
import sys

from filterlab_build import cuda_source, tvm_generate, tvm_registry

FAILED = []


def expect(ok, what):
    print(f"{'ok  ' if ok else 'FAIL'} {what}")
    if not ok:
        FAILED.append(what)


def refused(sweeps, registry):
    try:
        tvm_generate.manifest(registry, sweeps)
    except SystemExit as e:
        return str(e)
    return ""


def check_sweep(registry):
    entries = {(e["filter"], e["name"]): e for e in tvm_generate.manifest(registry, ["gaussian/tvm_rows8"])}
    rows8 = entries[("gaussian", "rows8")]
    axes = {a["name"]: a for a in rows8["axes"]}
    points = rows8["variants"][1:]
    size = 1
    for a in axes.values():
        size *= len(a["values"])
    expect(rows8["swept"] and len(points) == size, f"gaussian/tvm_rows8: {len(points)} points, its axes' product")
    expect(rows8["variants"][0]["variant"] == "tvm_rows8" and rows8["variants"][0]["origin"] == "schedule",
           "the registered default comes first, as tvm_rows8")
    expect(all(p["variant"] == f"tvm_rows8[{p['point']}]" and p["origin"] == "sweep_point" for p in points),
           "each point is tvm_rows8[a=1+b=2], origin sweep_point")
    default = "+".join(f"{n}={a['default']}" for n, a in axes.items())
    expect(rows8["variants"][0]["point"] == default and default in [p["point"] for p in points],
           f"the default point ({default}) is one of the sweep's")
    libraries = [lib["name"] for v in rows8["variants"] for lib in v["libraries"]]
    archives = [v["archive"] for v in rows8["variants"]]
    expect(len(set(libraries)) == len(libraries) and len(set(archives)) == len(archives),
           "every point has its own library and archive")
    expect(all(lib["name"] == "tvm_" + p["archive"].removeprefix("filterlab_").replace("_tvm_", "_", 1)
               for p in points for lib in p["libraries"]),
           "a point's library is its archive's (one stem names both)")
    expect(not entries[("gaussian", "interior16")]["swept"], "a schedule not named is not swept")


def check_launch_sweep(registry):
    capped = tvm_generate.manifest(registry, ["box/tvm_running_sums_long:max_registers"])
    long_runs = next(e for e in capped if e["name"] == "running_sums_long")
    frozen = long_runs["variants"][0]["point"]
    caps = [p["point"] for p in long_runs["variants"][1:]]
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
    for sweeps, why in ((["gaussian/tvm_no_such"], "no TVM schedule"),
                        (["gaussian/tvm_rows8:tile"], "sweeps its axes, or :max_registers"),
                        (["gaussian/tvm_rows8", "gaussian/tvm_rows8:max_registers"], "twice"),
                        (["gaussian/tvm_interior16"], "declares no axes")):
        expect(why in refused(sweeps, registry), f"FILTERLAB_SWEEPS={','.join(sweeps)} refused ({why})")
    expect(refused(["box/cpu_sliding", "all"], registry) == "", "Halide's sweeps and 'all' are not TVM's to refuse")
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
    run = subprocess.run([sys.executable, "-m", "filterlab_build.tvm_generate", "--schedule", "gaussian/rows8",
                          "--point", "rows=3", "--out", "/dev/null"], capture_output=True, text=True)
    lines = run.stderr.strip().splitlines()
    expect(run.returncode != 0 and len(lines) == 1 and lines[0].startswith("tvm_generate: "),
           "tvm_generate --point outside the axes: one error line, non-zero status")


def main():
    registry = tvm_generate.load_registry()
    check_sweep(registry)
    check_launch_sweep(registry)
    check_refusals(registry)
    sys.exit(1 if FAILED else 0)


if __name__ == "__main__":
    main()
