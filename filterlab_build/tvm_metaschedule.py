"""MetaSchedule, TVM's autotuner, on one algorithm of the suite (the GPU machine).

    python -m filterlab_build.tvm_metaschedule --algorithm gaussian.RowsFirst --scalars w0=26386,w1=16004,w2=3571 \
        --size 8192 --trials 256 --out DIR

tunes the algorithm's function (generators/tvm/) for one image shape, one
channel and rows pitched as the harness pitches them (tvm_generate:
specialise), its scalars fixed (MetaSchedule measures buffers only; a trace
replays on the same loops whatever the scalars' values), for the H100 (sm_90
and its limits; run on one), with TVM's own builder (nvcc), runner and cost
model (xgb needs `xgboost`, which the venv does not hold; or random). It
writes to DIR:

    best.py          the best trace as Python, a schedule body to freeze
                     (schedules/<filter>/tvm_<filter>.py registers it)
    summary.json     the best and the median measured candidate's seconds
    logs/            MetaSchedule's logs (the records stay in memory: its JSON
                     database crashed with apache-tvm-ffi 0.1.15, since pinned)

Needs Apache TVM with its CUDA runtime (the venv's pinned wheel) and a GPU:
neither the build nor the runtime of the suite run it.
"""
import argparse
import importlib
import json
import statistics
import sys
from pathlib import Path

from .tvm_generate import pitch

# MetaSchedule records a candidate that failed to build or run at 1e10 s.
FAILED_SECONDS = 1e9


def parse_scalars(text, option):
    """'w0=1,w1=2' -> {'w0': 1, 'w1': 2} (ints; a '.' makes a float)."""
    out = {}
    for part in filter(None, (text or "").split(",")):
        name, _, value = part.partition("=")
        try:
            out[name] = float(value) if "." in value else int(value)
        except ValueError:
            sys.exit(f"tvm_metaschedule: {option}: '{part}' is not name=number")
    return out


def tuned_function(algorithm, fixed, scalars, size):
    """The algorithm's function with every extent, pitch and scalar known."""
    module, _, name = algorithm.partition(".")
    try:
        alg = getattr(importlib.import_module(f"generators.tvm.{module}"), name)(**fixed)
    except (ImportError, AttributeError, TypeError) as e:
        sys.exit(f"tvm_metaschedule: --algorithm {algorithm} --fixed {fixed}: {e}")
    p = {v.name: v for v in alg.func.params}
    out_size = size // alg.output_scale
    values = {"channels": 1, "height": size, "width": size, "in_row": pitch(size), "in_plane": pitch(size) * size,
              "out_row": pitch(out_size), "out_plane": pitch(out_size) * out_size, **scalars}
    missing = [n for n in p if n not in values and n not in ("input", "output", "input_h", "output_h")]
    if missing:
        sys.exit(f"tvm_metaschedule: give --scalars for {', '.join(missing)}")
    return alg.func.specialize({p[n]: v for n, v in values.items() if n in p})


def print_spaces(func, target):
    """Each design space MetaSchedule's default CUDA rules make of the function:
    the schedule's instructions and what its search may decide (the samples)."""
    import tvm
    from tvm.s_tir import meta_schedule as ms
    context = ms.TuneContext(mod=tvm.IRModule({"main": func}), target=target, space_generator="post-order-apply",
                             search_strategy="evolutionary", task_name="main")
    spaces = context.generate_design_space()
    print(f"{len(spaces)} design space(s)")
    for number, space in enumerate(spaces):
        kinds = [inst.kind.name for inst in space.trace.insts]
        samples = [k for k in kinds if k.startswith("Sample")]
        print(f"space {number}: {len(kinds)} instructions, {len(samples)} decision(s) to search: "
              f"{', '.join(samples) or 'none'}; instructions: {', '.join(dict.fromkeys(kinds))}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--algorithm", required=True, help="module.Class of generators/tvm, e.g. gaussian.RowsFirst")
    parser.add_argument("--fixed", default="", help="the algorithm's constructor arguments, e.g. size=3")
    parser.add_argument("--scalars", default="", help="the algorithm's scalars, e.g. w0=26386,w1=16004,w2=3571")
    parser.add_argument("--size", type=int, default=8192, help="the square image's side")
    parser.add_argument("--trials", type=int, default=256)
    parser.add_argument("--cost-model", default="xgb", help="MetaSchedule's: xgb (needs xgboost) or random")
    parser.add_argument("--out", type=Path, help="where the results go (tuning)")
    parser.add_argument("--spaces", action="store_true",
                        help="print MetaSchedule's design spaces for the algorithm and stop (no GPU needed)")
    args = parser.parse_args()

    import tvm
    from tvm.s_tir import meta_schedule as ms

    func = tuned_function(args.algorithm, parse_scalars(args.fixed, "--fixed"), parse_scalars(args.scalars, "--scalars"), args.size)
    target = tvm.target.Target({"kind": "cuda", "arch": "sm_90", "max_threads_per_block": 1024,
                                "max_shared_memory_per_block": 49152, "thread_warp_size": 32,
                                "registers_per_block": 65536})
    if args.spaces:
        return print_spaces(func, target)
    if not args.out:
        sys.exit("tvm_metaschedule: --out is needed to tune")
    args.out.mkdir(parents=True, exist_ok=True)
    database = ms.tir_integration.tune_tir(
        func, target, work_dir=str(args.out / "logs"), max_trials_global=args.trials, database="memory",
        num_trials_per_iter=64, cost_model=args.cost_model,
        builder=ms.builder.LocalBuilder(timeout_sec=120),  # nvcc on unrolled stencils outlasts its 30 s
        runner=ms.runner.LocalRunner(
            evaluator_config=ms.runner.EvaluatorConfig(number=5, repeat=3, min_repeat_ms=50)))
    records = database.get_all_tuning_records()
    seconds = sorted(t for t in (statistics.median(float(s) for s in r.run_secs) for r in records if r.run_secs)
                     if t < FAILED_SECONDS)
    if not seconds:
        sys.exit(f"tvm_metaschedule: no candidate built and ran ({len(records)} tried; see logs/)")
    best = ms.tir_integration.compile_tir(database, func, target)
    (args.out / "best.py").write_text("\n".join(best.trace.as_python()) + "\n")
    summary = {"algorithm": args.algorithm, "fixed": args.fixed, "scalars": args.scalars, "size": args.size,
               "trials": args.trials, "tried": len(records), "measured": len(seconds), "best_us": seconds[0] * 1e6,
               "median_us": statistics.median(seconds) * 1e6,
               "best10_us": [s * 1e6 for s in seconds[:10]]}
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
