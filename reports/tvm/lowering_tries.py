# Issue 54: does TVM 0.27 lower the symmetric NL-means in one kernel, and a median's
# input staged per thread, symbolic and with the shape fixed? Scratch; lowering_tries.md.
# usage, from the source tree: .venv/bin/python -m reports.tvm.lowering_tries [case ...]
import re
import subprocess
import sys
import traceback
from pathlib import Path

import numpy as np
import tvm
from tvm import s_tir
from tvm.script import tirx as T

from filterlab_build import cuda_source
from filterlab_build.tvm_generate import specialise
from generators.tvm import nlmeans
from generators.tvm.plane import Algorithm, bordered, clamp
from tests.tvm.tvm_run import clamp_pad, run


def bind(sch, *pairs):
    for loop, axis in pairs:
        sch.bind(loop, axis)


def symmetric(sch, alg, fuse_box=False):
    """tvm_nlmeans.py's `symmetric` as removed in d37438d; fuse_box: the weight box's loops fused."""
    output = sch.get_sblock(alg.output)
    c, y, x = sch.get_loops(output)
    by, ty, yr = sch.split(y, [None, 4, 4])
    bx, tx = sch.split(x, [None, 32])
    sch.reorder(by, bx, ty, tx, yr, c)
    bind(sch, (by, "blockIdx.y"), (bx, "blockIdx.x"), (ty, "threadIdx.y"), (tx, "threadIdx.x"))
    sch.unroll(yr)
    sch.unroll(c)
    accum = sch.get_sblock(alg.accum)
    sch.compute_at(accum, bx, preserve_unit_loops=True)
    sch.set_scope(accum, 0, "local")
    k, ay, ax, n = sch.get_loops(accum)[-4:]
    aty, ayr = sch.split(ay, [4, 4])
    sch.reorder(n, aty, ax, ayr, k)
    bind(sch, (aty, "threadIdx.y"), (ax, "threadIdx.x"))
    sch.unroll(ayr)
    sch.unroll(k)
    sch.decompose_reduction(accum, n)
    weight = sch.get_sblock(alg.weight)
    sch.compute_at(weight, n, preserve_unit_loops=True)
    sch.set_scope(weight, 0, "shared")
    wy, wx, _ = sch.get_loops(weight)[-3:]
    if fuse_box:
        _, sy, sx = sch.split(sch.fuse(wy, wx), [None, 4, 32])
    else:
        wyo, sy = sch.split(wy, [None, 4])
        wxo, sx = sch.split(wx, [None, 32])
        sch.reorder(wyo, wxo, sy, sx)
    bind(sch, (sy, "threadIdx.y"), (sx, "threadIdx.x"))
    distance = sch.get_sblock(alg.distance)
    sch.compute_at(distance, sx, preserve_unit_loops=True)
    sch.set_scope(distance, 0, "local")
    for loop in sch.get_loops(distance)[-2:]:
        sch.unroll(loop)
    padded = sch.get_sblock(alg.padded)
    sch.compute_at(padded, bx, preserve_unit_loops=True)
    sch.set_scope(padded, 0, "shared")
    _, py, px = sch.get_loops(padded)[-3:]
    _, sy, sx = sch.split(sch.fuse(py, px), [None, 4, 32])
    bind(sch, (sy, "threadIdx.y"), (sx, "threadIdx.x"))


def med3(a, b, c):
    return T.max(T.min(a, b), T.min(T.max(a, b), c))


def median9(border, c, y, x):
    """The 3x3 median at border (y + 1, x + 1): med3 of the columns' largest low, median middle, smallest high."""
    cols = [[border[c, y + j, x + i] for j in range(3)] for i in range(3)]
    lo = [T.min(T.min(a, b), d) for a, b, d in cols]
    hi = [T.max(T.max(a, b), d) for a, b, d in cols]
    return med3(T.max(T.max(lo[0], lo[1]), lo[2]), med3(*[med3(*col) for col in cols]),
                T.min(T.min(hi[0], hi[1]), hi[2]))


class StagedMedian3(Algorithm):
    """The 3x3 median from a stage `clamped`: the input and its clamp border (bounded: plane.bordered's sides)."""
    clamped, output = "clamped", "output"

    def __init__(self, bounded):
        def side(extent):
            return bordered(extent, 1) if bounded else extent + 2

        @T.prim_func(s_tir=True)
        def median3(input_h: T.handle, output_h: T.handle, channels: T.int32, height: T.int32, width: T.int32,
                    in_plane: T.int32, in_row: T.int32, out_plane: T.int32, out_row: T.int32):
            T.func_attr({"tirx.noalias": True})
            input = T.match_buffer(input_h, (channels, height, width), "uint8", strides=(in_plane, in_row, 1))
            output = T.match_buffer(output_h, (channels, height, width), "uint8", strides=(out_plane, out_row, 1))
            border = T.sblock_alloc_buffer((channels, side(height), side(width)), "uint16")
            for c, y, x in T.grid(channels, side(height), side(width)):
                with T.sblock("clamped"):
                    vc, vy, vx = T.axis.remap("SSS", [c, y, x])
                    border[vc, vy, vx] = T.Cast("uint16", input[vc, clamp(vy - 1, height), clamp(vx - 1, width)])
            for c, y, x in T.grid(channels, height, width):
                with T.sblock("output"):
                    vc, vy, vx = T.axis.remap("SSS", [c, y, x])
                    output[vc, vy, vx] = T.Cast("uint8", median9(border, vc, vy, vx))

        super().__init__(median3)


def staged_block(sch, alg):
    """4x4 outputs a thread, 32x8 threads; the thread's 6x6 samples of `clamped` at the thread, "local"."""
    c, y, x = sch.get_loops(sch.get_sblock(alg.output))
    by, ty, yr = sch.split(y, [None, 8, 4])
    bx, tx, xv = sch.split(x, [None, 32, 4])
    sch.reorder(c, by, bx, ty, tx, yr, xv)
    bind(sch, (c, "blockIdx.z"), (by, "blockIdx.y"), (bx, "blockIdx.x"), (ty, "threadIdx.y"), (tx, "threadIdx.x"))
    sch.unroll(yr)
    sch.unroll(xv)
    clamped = sch.get_sblock(alg.clamped)
    sch.compute_at(clamped, tx)
    sch.set_scope(clamped, 0, "local")


def median_exact(alg):
    """The unscheduled algorithm on the CPU against NumPy's 3x3 median."""
    rng = np.random.default_rng(0)
    for c, h, w in [(1, 1, 1), (1, 5, 7), (3, 17, 33), (1, 64, 64)]:
        image = rng.integers(0, 256, (c, h, w), dtype=np.uint8)
        p = clamp_pad(image, 1)
        gold = np.median(np.stack([p[:, j:j + h, i:i + w] for j in range(3) for i in range(3)]), axis=0)
        if not (run(alg, image, image.shape) == gold.astype(np.uint8)).all():
            return False
    return True


@tvm.ir.instrument.pass_instrument
class Passes:
    """The pass running; the shared/local allocations CompactBufferAllocation left."""

    def __init__(self):
        self.running, self.compacted = "", []

    def run_before_pass(self, mod, info):
        self.running = info.name

    def run_after_pass(self, mod, info):
        if "CompactBufferAllocation" in info.name:
            self.compacted = sorted({line.strip() for line in mod.script().splitlines()
                                     if "alloc_buffer" in line and re.search(r'"(shared|local)"', line)})


def attempt(name, alg, schedule, func, shape):
    passes = Passes()
    try:
        sch = s_tir.Schedule(tvm.IRModule({"main": func}))
        schedule(sch, alg)
        with tvm.transform.PassContext(instruments=[passes]):
            source = cuda_source.lower({name: sch.mod["main"]})[0]
        out = Path(f"/tmp/lowering_tries_{name}_{shape}.cu")
        out.write_text(source)
        print(f"{name} {shape}: lowers to CUDA C")
        print("".join(f"    compacted: {line}\n" for line in passes.compacted), end="")
        ptxas = subprocess.run(["nvcc", "-arch=sm_90", "-c", "-Xptxas", "-v", str(out), "-o", "/dev/null"],
                               capture_output=True, text=True)
        print(f"    nvcc -arch=sm_90: exit {ptxas.returncode}")
        for line in ptxas.stderr.splitlines():
            if re.search(r"error|Used \d+ registers|stack frame", line):
                print("    " + line.strip())
    except Exception as e:  # noqa: BLE001  (TVM raises its own error types)
        ours = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == __file__ and f.name != "attempt"]
        where = f"in {passes.running}" if passes.running else f"in scheduling, at `{ours[-1].line}`"
        print(f"{name} {shape}: fails {where}: {type(e).__name__}")
        print("".join(f"    compacted: {line}\n" for line in passes.compacted), end="")
        said = str(e).strip().splitlines()[-1]
        print("    " + re.sub(r"^Check failed: .* is false: (?=\S)", "", said))  # the check's message, if any


CASES = {
    "nlmeans_symmetric": (lambda: nlmeans.Symmetric(patch=3, search=10), symmetric, 1024),
    "nlmeans_symmetric_p1s2": (lambda: nlmeans.Symmetric(patch=1, search=2), symmetric, 1024),
    "nlmeans_symmetric_fused_box": (lambda: nlmeans.Symmetric(patch=3, search=10),
                                    lambda sch, alg: symmetric(sch, alg, fuse_box=True), 1024),
    "median3_staged": (lambda: StagedMedian3(bounded=False), staged_block, 4096),
    "median3_staged_bounded": (lambda: StagedMedian3(bounded=True), staged_block, 4096),
}

if __name__ == "__main__":
    print(f"Apache TVM {tvm.__version__}")
    for name in sys.argv[1:] or CASES:
        make, schedule, side = CASES[name]
        alg = make()
        if isinstance(alg, StagedMedian3):
            print(f"{name}: exact on the CPU against NumPy (1x1 to 3x17x33): {median_exact(alg)}")
        attempt(name, alg, schedule, alg.func, "symbolic")
        attempt(name, alg, schedule, specialise(alg, side, side), f"{side}x{side}")
