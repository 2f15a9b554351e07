"""Runs Halide's autoschedulers on every filter and freezes what they chose.

Usage: python -m filterlab_build.autoschedule BUILD_DIR [--only FILTER,...] [--schedulers BACKEND_SCHEDULER,...] [--timeout S]
                                                 [--plugins DIR]

For each filter of the contract (`filterlab list --json` of BUILD_DIR), each
autoscheduler of AUTOSCHEDULERS below and each compile-time value of the
filter (median's size), runs the filter's generator
unscheduled with the plugin from the Halide wheel and writes the schedule it
chose, as Halide emits it, to schedules/<filter>/auto/<backend>_<scheduler>
[_size<k>].schedule.h. The default build compiles those frozen files (fast and
deterministic); this script is how they are made again
(`cmake --build build --target autoschedule`). An autoscheduler that refuses
or fails on a pipeline is written, with its message, to
schedules/<filter>/auto/refused.txt, which the report and docs/exploring.md show:
nothing is left out silently.
"""
import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent

# The machines we measure on, in the autoschedulers' terms. The one place
# these numbers live (docs/exploring.md, "Halide's autoschedulers" explains them).
XEON_CORES = 16          # the H100 machine's Xeon: 16 cores, AVX-512
XEON_LLC_BYTES = 300 << 20  # its L3, as lscpu reports it on the device (2 MiB L2 per core)
H100_SMS = 132
H100_SHARED_PER_BLOCK_KB = 48   # without the opt-in to more dynamic shared memory
H100_SHARED_PER_SM_KB = 228
H100_BLOCKS_PER_SM = 32
H100_WARPS_PER_SM = 64

# Each autoscheduler run gets at most this much memory (Adams2019 on NL-means
# grew past 22 GiB on the 24 GiB build machine).
MEMORY_LIMIT_BYTES = 8 << 30

CPU_TARGET = "x86-64-linux-avx512_skylake"
# Read from the build (FILTERLAB_CUDA_TARGET), as the libraries are compiled.
CUDA_TARGET_KEY = "FILTERLAB_CUDA_TARGET"

# (backend, scheduler, plugin, parameters). Adams2019 and Anderson2021 search
# with their learned cost models (the weights built into the plugins); Li2018
# and Mullapudi2016 use analytic heuristics.
AUTOSCHEDULERS = [
    ("cpu", "adams2019", "Adams2019", {"parallelism": XEON_CORES}),
    ("cpu", "li2018", "Li2018", {"parallelism": XEON_CORES}),
    ("cpu", "mullapudi2016", "Mullapudi2016",
     {"parallelism": XEON_CORES, "last_level_cache_size": XEON_LLC_BYTES, "balance": 40}),
    ("cuda", "anderson2021", "Anderson2021",
     {"parallelism": H100_SMS, "shared_memory_limit_kb": H100_SHARED_PER_BLOCK_KB,
      "shared_memory_sm_limit_kb": H100_SHARED_PER_SM_KB, "active_block_limit": H100_BLOCKS_PER_SM,
      "active_warp_limit": H100_WARPS_PER_SM}),
    ("cuda", "li2018", "Li2018", {"parallelism": H100_SMS}),
    ("cuda", "mullapudi2016", "Mullapudi2016",
     {"experimental_gpu_schedule": 1, "parallelism": H100_SMS,
      "last_level_cache_size": H100_SHARED_PER_BLOCK_KB * 1024, "balance": 20}),
]

# Li2018 writes a description of its schedule, not C++ that compiles: its
# Funcs, Vars and the input's wrapper are not declared. Run inside the build
# instead, its schedules split with ShiftInwards tails, which fail every image
# smaller than a split.
# Its descriptions are kept, as <name>.schedule.txt, for readers; it is
# recorded as refused. So is any other emitted schedule g++ refuses after fix_up.
DESCRIBED_ONLY = {"li2018"}
DESCRIBED_ONLY_NOTE = "// What Li2018 chose, as it describes it: not C++ that compiles, not built.\n"
DESCRIBED_ONLY_WHY = ("writes its schedule only as a description (undeclared Funcs, Vars and input wrapper), which "
                      "cannot be frozen; run inside the build, its ShiftInwards splits fail images smaller than a "
                      "split (description kept in {file})")



def contract_filters(build):
    """{filter: (generator parameter or None, [its values] or [None])}, from the
    contract's one owner (runtime/core/filters.cpp) as `filterlab list --json`
    of BUILD_DIR gives it. A filter whose Halide variants are compiled once per
    value (median's size: one library each) has that parameter's values listed
    by the contract; the others take every parameter at run time."""
    exe = build / "runtime" / "filterlab"
    if not exe.exists():
        sys.exit(f"autoschedule: {exe} is not built (cmake --build {build} --target filterlab)")
    variants = json.loads(subprocess.run([str(exe), "list", "--json"], check=True, capture_output=True,
                                         text=True).stdout)["variants"]
    filters = {}
    for v in variants:
        if v["kind"] == "reference":
            listed = [(name, p["values"]) for name, p in v["params"].items() if "values" in p]
            filters[v["filter"]] = listed
    compiled_per_value = {v["filter"] for v in variants if v["kind"] == "halide" and len(v["libraries"]) > 1}
    return {f: listed[0] if f in compiled_per_value and listed else (None, [None]) for f, listed in filters.items()}


# Halide 21's emitters write a few things that do not compile; each fix-up is
# mechanical and named in the file it changes.
def fix_up(scheduler, backend, text):
    fixes = []
    if "    auto pipeline = get_pipeline();\n" in text:  # Anderson2021: shadows the parameter
        text = text.replace("    auto pipeline = get_pipeline();\n", "")
        fixes.append("removed `auto pipeline = get_pipeline();` (it shadows the function's parameter)")
    # Mullapudi2016: a block declares only the Vars it splits, yet reorders by all of them.
    def declare_all(m):
        func = m.group(2)
        wanted = [f"{m.group(1)}[[maybe_unused]] Var {v} = {func}.args()[{i}];" for i, v in enumerate("xyc")]
        return "\n".join(wanted)
    fixed = re.sub(r"( +)Var x = (\w+)\.args\(\)\[0\];(\n +Var y = \w+\.args\(\)\[1\];)?"
                   r"(\n +Var c = \w+\.args\(\)\[2\];)?", declare_all, text)
    if fixed != text and scheduler == "mullapudi2016":
        text = fixed
        fixes.append("declared every Var x, y, c of each Func in its block (the emitter declared only those it splits)")
    # All: the autoschedulers plan for the estimates (8192²), and a split that
    # shifts inwards needs the image to be at least the split's size; the
    # contract needs every size, down to 1x1. Guarded tails keep the schedule
    # and meet it (on the CPU a rounded-up tail stays: it only computes past an edge,
    # which the clamped input allows).
    untailed = re.compile(r"\.split\(([^(),]+),([^(),]+),([^(),]+),\s*(\d+)\)")
    if "TailStrategy::ShiftInwards" in text or untailed.search(text):
        text = text.replace("TailStrategy::ShiftInwards", "TailStrategy::GuardWithIf")
        text = untailed.sub(r".split(\1,\2,\3, \4, TailStrategy::GuardWithIf)", text)
        fixes.append("every split that shifted inwards (or took the default tail) now guards its tail, so that "
                     "images smaller than a split are computed (the estimates are 8192 x 8192; the contract starts "
                     "at 1 x 1)")
    # GPU: a rounded-up tail computes a Func past its region, reading its
    # producer there; where the producer's update stage guards its own tail,
    # those rows were allocated but never written (compute-sanitizer's
    # initcheck: uninitialised global reads, harmless to the output but a read
    # of memory no stage wrote). Guarded there too.
    if backend == "cuda" and "TailStrategy::RoundUp" in text:
        text = text.replace("TailStrategy::RoundUp", "TailStrategy::GuardWithIf")
        fixes.append("every rounded-up split guards its tail too (on the GPU a rounded-up tail read its producer "
                     "past the rows the producer's update wrote)")
    if fixes:
        note = "".join(f"// Fixed up by filterlab_build/autoschedule.py: {f}.\n" for f in fixes)
        text = text.replace("#include \"Halide.h\"", note + "\n#include \"Halide.h\"", 1)
    return text


def too_many_threads(text):
    """A GPU block over CUDA's 1024 threads, as "64 x 32 = 2048 threads"; ""
    when every block fits. For Mullapudi2016's GPU mode, whose statements split
    each thread loop once (it tiles 64 x 32: cuLaunchKernel then fails with
    CUDA_ERROR_INVALID_VALUE on the H100)."""
    for block in text.split(";"):  # one Func's chain of directives per statement
        factors = dict(re.findall(r"\.split\(\s*\w+,\s*\w+,\s*(\w+),\s*(\d+)", block))
        threads = [int(factors[v]) for v in re.findall(r"\.gpu_threads\((\w+)\)", block) if v in factors]
        if threads and (total := eval("*".join(map(str, threads)))) > 1024:
            return " x ".join(map(str, threads)) + f" = {total} threads"
    return ""


def compile_error(text, halide_include):
    """The first error g++ gives on the emitted source, or "" when it compiles."""
    with tempfile.NamedTemporaryFile("w", suffix=".h") as f:
        f.write(text)
        f.flush()
        done = subprocess.run(["g++", "-std=c++20", "-fsyntax-only", "-I", str(halide_include), "-x", "c++", f.name],
                              capture_output=True, text=True)
    errors = [l.split("error: ", 1)[1] for l in done.stderr.splitlines() if "error: " in l]
    return errors[0] if errors else ("" if done.returncode == 0 else "does not compile")


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT_BYTES, MEMORY_LIMIT_BYTES))


def cache_value(build, key):
    for line in (build / "CMakeCache.txt").read_text().splitlines():
        if line.startswith(key + ":"):
            return line.split("=", 1)[1]
    sys.exit(f"autoschedule: {key} is not in {build}/CMakeCache.txt")


def one_line(text):
    """The autoscheduler's own message: the last 'Error' paragraph, on one line."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for i in range(len(lines) - 1, -1, -1):
        if "rror" in lines[i]:
            return " ".join(lines[i:i + 3])[:400]
    return (lines[-1] if lines else "no output")[:400]


def run(build, plugins, filter_, param, value, backend, scheduler, plugin, params, target, timeout):
    name = f"{backend}_{scheduler}" + (f"_{param}{value}" if value else "")
    function = f"{filter_}_{name}"
    args = [str(build / "schedules" / f"{filter_}.generator"), "-g", filter_, "-e", "schedule", "-f", function,
            "-p", str(plugins / f"libautoschedule_{scheduler}.so"), f"target={target}",
            f"autoscheduler={plugin}"] + [f"autoscheduler.{k}={v}" for k, v in params.items()]
    if value:
        args.append(f"{param}={value}")
    with tempfile.TemporaryDirectory() as out:
        try:
            done = subprocess.run(args + ["-o", out], capture_output=True, text=True, timeout=timeout,
                                  preexec_fn=limit_memory)
            message = one_line(done.stderr + done.stdout) if done.returncode else ""
            if done.returncode and ("bad_alloc" in message or done.returncode < 0 or message == "no output"):
                message = f"ran out of memory: stopped at the {MEMORY_LIMIT_BYTES >> 30} GiB limit ({message})"
        except subprocess.TimeoutExpired:
            message = f"no schedule within {timeout} s"
        produced = Path(out) / f"{function}.schedule.h"
        if not message and produced.exists():
            text = re.sub(r"// for target=.*", f"// for target={target}", produced.read_text())
            text = fix_up(scheduler, backend, text)
            if scheduler in DESCRIBED_ONLY:
                return name, DESCRIBED_ONLY_NOTE + text, DESCRIBED_ONLY_WHY, False
            if error := compile_error(text, plugins.parent / "include"):
                why = f"its emitted schedule is not C++ that compiles (g++: {error})"
                return name, f"// Not built: {why}.\n" + text, why, False
            if scheduler == "mullapudi2016" and (blocks := too_many_threads(text)):
                why = (f"its GPU blocks have {blocks}, over CUDA's 1024 (on the H100 every launch failed: "
                       "CUDA_ERROR_INVALID_VALUE, reports/explore/check_auto.txt)")
                return name, f"// Not built: {why}.\n" + text, why, False
            return name, text, "", True
    return name, None, message or "no schedule written", False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build", type=Path)
    parser.add_argument("--only", default="")
    parser.add_argument("--schedulers", default="",
                        help="only these <backend>_<scheduler> (e.g. cpu_adams2019); the others' files are kept")
    parser.add_argument("--timeout", type=int, default=900)
    parser.add_argument("--plugins", type=Path, help="folder of libautoschedule_*.so (default: the Halide wheel's)")
    a = parser.parse_args()
    if not a.plugins:
        import halide
        a.plugins = Path(halide.__file__).parent / "lib64"
    cuda_target = cache_value(a.build, CUDA_TARGET_KEY)
    only = [f for f in a.only.split(",") if f]
    schedulers = [s for s in a.schedulers.split(",") if s]
    for filter_, (param, values) in contract_filters(a.build).items():
        if only and filter_ not in only:
            continue
        folder = SOURCE / "schedules" / filter_ / "auto"
        folder.mkdir(exist_ok=True)
        chosen = [s for s in AUTOSCHEDULERS if not schedulers or f"{s[0]}_{s[1]}" in schedulers]
        refused = []
        if (folder / "refused.txt").exists():  # the refusals of the autoschedulers not run again
            refused = [line for line in (folder / "refused.txt").read_text().splitlines()
                       if not any(line.startswith(f"{b}_{n}") for b, n, _, _ in chosen)]
        for backend, scheduler, plugin, params in chosen:
            for old in folder.glob(f"{backend}_{scheduler}*.schedule.*"):
                old.unlink()  # an autoscheduler that now refuses leaves no stale schedule
            target = CPU_TARGET if backend == "cpu" else cuda_target
            for value in values:
                name, text, why, compiles = run(a.build, a.plugins, filter_, param, value, backend, scheduler, plugin,
                                                params, target, a.timeout)
                if text:
                    suffix = ".schedule.h" if compiles else ".schedule.txt"
                    (folder / f"{name}{suffix}").write_text(text)
                    why = why.format(file=f"schedules/{filter_}/auto/{name}{suffix}")
                if compiles:
                    print(f"{filter_}/{name}: frozen", flush=True)
                else:
                    refused.append(f"{name}: {why}")
                    print(f"{filter_}/{name}: refused: {why}", flush=True)
        (folder / "refused.txt").write_text("".join(line + "\n" for line in sorted(refused)))


if __name__ == "__main__":
    main()
