#!/usr/bin/env python3
"""Why the Halide CUDA schedules load the input a byte at a time: the 3x3 box
of generators/box.h (clamp border), compiled for CUDA with five schedules,
and the global/shared loads and stores of the PTX Halide emits counted.

  plain        one output per thread (a 32x8 block)
  vector16     16 adjacent outputs per thread, vectorised
  partition    vector16, and the block's x loop partitioned (Partition::Always)
               so the interior would lose its clamp: Halide refuses for GPU loops
  staged       vector4, the input staged per block through a wrapper (.in())
               whose load loop is vectorised by 16
  staged_rr    the same with RoundUp
  aligned      vector16, with the input's and output's rows declared 16-byte
               aligned (host alignment, min 0, row stride a multiple of 16)

usage (in the project's venv): python3 reports/targets/halide_clamp_loads.py
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

import halide as hl

TARGET = hl.Target("x86-64-linux-cuda-cuda_capability_86")


def pipeline(schedule):
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    x, y = hl.Var("x"), hl.Var("y")
    wrap = hl.Func("wrap")
    wrap[x, y] = inp[x, y]
    clamped = hl.Func("clamped")
    clamped[x, y] = wrap[hl.clamp(x, 0, inp.width() - 1), hl.clamp(y, 0, inp.height() - 1)]
    rows = hl.Func("rows")
    rows[x, y] = hl.u16(clamped[x - 1, y]) + hl.u16(clamped[x, y]) + hl.u16(clamped[x + 1, y])
    out = hl.Func("out")
    out[x, y] = hl.u8((hl.u32(rows[x, y - 1] + rows[x, y] + rows[x, y + 1]) + 4) / 9)
    xo, yo, xi, yi, xv, xb, sxo, sxi = [hl.Var(n) for n in ("xo", "yo", "xi", "yi", "xv", "xb", "sxo", "sxi")]
    guard = hl.TailStrategy.GuardWithIf
    if schedule == "aligned":  # vector16 with every row start declared 16-byte aligned
        for buf in (inp, out.output_buffer()):
            buf.set_host_alignment(16)
            buf.dim(0).set_min(0)
            buf.dim(1).set_stride((buf.dim(1).stride() // 16) * 16)
        schedule = "vector16"
    if schedule == "plain":
        out.gpu_tile(x, y, xo, yo, xi, yi, 32, 8, guard)
    elif schedule in ("vector16", "partition"):
        out.split(x, xb, xv, 16, guard).split(xb, xo, xi, 32).split(y, yo, yi, 8).reorder(xv, xi, yi, xo, yo)
        out.vectorize(xv).gpu_blocks(xo, yo).gpu_threads(xi, yi)
        if schedule == "partition":
            out.partition(xi, hl.Partition.Always)
    else:
        out.split(x, xb, xv, 4, guard).gpu_tile(xb, y, xo, yo, xi, yi, 32, 8, guard).vectorize(xv)
        tail = guard if schedule == "staged" else hl.TailStrategy.RoundUp
        wrap.compute_at(out, xo).split(x, sxo, sxi, 16, tail).vectorize(sxi).gpu_threads(sxo, y)
    return out, inp


def memory_ops(schedule):
    out, inp = pipeline(schedule)
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, HL_DEBUG_CODEGEN="2")
        code = ("import halide_clamp_loads as m; "  # python -c imports from the folder it runs in: this one
                "f, i = m.pipeline(%r); f.compile_to({m.hl.OutputFileType.object: %r}, [i], 'f', m.TARGET)"
                % (schedule, os.path.join(tmp, "f.o")))
        run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                             cwd=os.path.dirname(os.path.abspath(__file__)))
    if run.returncode:
        return "refused: " + run.stderr.strip().splitlines()[-1][-160:]
    ops = collections.Counter(re.findall(r"\b(?:ld|st)\.(?:global|shared)(?:\.nc)?(?:\.v[248])?\.[bsu]\d+",
                                         run.stdout + run.stderr))
    return ", ".join(f"{n} {op}" for op, n in sorted(ops.items()))


if __name__ == "__main__":
    print(f"target {TARGET}")
    for schedule in ("plain", "vector16", "partition", "staged", "staged_rr", "aligned"):
        print(f"{schedule:10} {memory_ops(schedule)}")
