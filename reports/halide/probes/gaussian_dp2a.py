# Probe (issue 30): the Gaussian's horizontal taps through dp2a, from a
# vectorised widening-multiply reduction (../shared/HALIDE_GPU.md, "dp2a /
# dp4a"). Columns first, as hw_columns_first: 16-bit vertical sums, then the
# horizontal pass written as sum over 8 taps of widening_mul(u16 sum, u16 of
# a u8 weight) (taps 5..7 weigh 0: Halide's PTX backend matches dp2a on
# reductions of 4 lanes), reduced with .atomic().vectorize(). Checked on the
# CPU (JIT) against NumPy; compiled for CUDA to count dp2a in the PTX; built
# into the probe timer's calling convention f(in, w0, w1, w2, out) by
# reports/halide/probes/build_probe.sh gaussian_dp2a DIR.
# usage: .venv/bin/python reports/halide/probes/gaussian_dp2a.py cpu | DIR
import os
import re
import subprocess
import sys

import halide as hl
import numpy as np


class Gaussian:
    def __init__(self):
        self.inp = hl.ImageParam(hl.UInt(8), 2, "input")
        self.w = [hl.Param(hl.Int(32), f"w{i}") for i in range(3)]
        inp = self.inp
        for d in range(2):
            inp.dim(d).set_min(0)
        x, y, r = hl.Var("x"), hl.Var("y"), hl.Var("r")
        self.x, self.y = x, y
        cl = hl.Func("clamped")
        cl[x, y] = inp[hl.clamp(hl.likely(x), 0, inp.width() - 1), hl.clamp(hl.likely(y), 0, inp.height() - 1)]
        w0, w1, w2 = self.w
        self.col = col = hl.Func("col")
        s = lambda dy: hl.u16(cl[x, y + dy])
        col[x, y] = hl.u16(w0) * s(0) + hl.u16(w1) * (s(-1) + s(1)) + hl.u16(w2) * (s(-2) + s(2))
        # The 8 tap weights as bytes (the contract's w0 is at most 255 unless
        # sigma is tiny: the probe requires it, a schedule would specialise).
        self.wt = wt = hl.Func("wt")
        wt[r] = hl.u8(hl.select(r == 2, w0, (r == 1) | (r == 3), w1, (r == 0) | (r == 4), w2, 0))
        self.k = k = hl.RDom([(0, 8)], "k")
        self.row = row = hl.Func("row")
        row[x, y] = hl.u32(0)
        row[x, y] += hl.widening_mul(col[x + k.x - 2, y], hl.u16(wt[k.x]))
        self.out = out = hl.Func("out")
        out[x, y] = hl.u8(hl.rounding_shift_right(hl.u16(row[x, y] >> 15), 1))
        ob = out.output_buffer()
        for d in range(2):
            ob.dim(d).set_min(0)

    def args(self):
        return [self.inp] + self.w


def schedule(g, vector, rows, shared):
    """rows8's shape: `vector` x `rows` outputs a thread, 4 warps; each output's
    8 taps one atomic vector reduction (dp2a); the vertical sums under the
    thread in registers, or (shared) the block's in shared memory."""
    x, y = g.x, g.y
    xo, yo, xi, yi, xt, xv, yt, yr = [hl.Var(n) for n in "xo yo xi yi xt xv yt yr".split()]
    g.out.tile(x, y, xo, yo, xi, yi, 32 * vector, 4 * rows, hl.TailStrategy.GuardWithIf) \
        .split(xi, xt, xv, vector, hl.TailStrategy.GuardWithIf).split(yi, yt, yr, rows, hl.TailStrategy.GuardWithIf) \
        .reorder(xv, yr, xt, yt, xo, yo).unroll(xv).unroll(yr).gpu_blocks(xo, yo).gpu_threads(xt, yt)
    g.row.compute_at(g.out, xt).store_in(hl.MemoryType.Register).bound_extent(x, vector).bound_extent(y, rows) \
        .unroll(x).unroll(y)
    g.row.update().atomic().vectorize(g.k.x).unroll(x).unroll(y)
    if shared:
        cx, cy = hl.Var("cx"), hl.Var("cy")
        g.col.compute_at(g.out, xo).store_in(hl.MemoryType.GPUShared) \
            .tile(x, y, cx, cy, 32, 4, hl.TailStrategy.RoundUp).gpu_threads(cx, cy)
    else:
        g.col.compute_at(g.out, xt).store_in(hl.MemoryType.Register).bound_extent(x, vector + 8) \
            .bound_extent(y, rows).unroll(x).unroll(y)
    g.wt.compute_at(g.out, xt).store_in(hl.MemoryType.Register).bound_extent(hl.Var(g.wt.args()[0].name()), 8) \
        .vectorize(hl.Var(g.wt.args()[0].name()))


def gold(a, w):
    ww = [w[2], w[1], w[0], w[1], w[2]]
    p = np.pad(a.astype(np.int64), 2, mode="edge")
    h, wd = a.shape
    s = sum(ww[i] * ww[j] * p[i:i + h, j:j + wd] for i in range(5) for j in range(5))
    return ((s + 32768) >> 16).astype(np.uint8)


def check_cpu():
    g = Gaussian()
    for (h, wd) in [(1, 1), (7, 13), (64, 61), (37, 100)]:
        a = np.random.default_rng(h * wd).integers(0, 256, (h, wd), dtype=np.uint8)
        g.inp.set(hl.Buffer(a))
        for w, p in zip((102, 63, 14), g.w):
            p.set(w)
        got = np.asarray(g.out.realize([wd, h]))
        assert (got == gold(a, (102, 63, 14))).all(), (h, wd)
    print("columns first, horizontal taps as a widening-multiply reduction: exact on the CPU")


def compile_cuda(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    target = hl.Target("x86-64-linux-cuda-cuda_capability_86-no_runtime")
    for vector, rows, shared in ((4, 8, False), (8, 4, False), (4, 8, True), (8, 4, True)):
        g = Gaussian()
        schedule(g, vector, rows, shared)
        name = f"dp2a_{vector}x{rows}" + ("_shared" if shared else "")
        stem = os.path.join(out_dir, name)
        g.out.compile_to({hl.OutputFileType.c_header: stem + ".h", hl.OutputFileType.object: stem + ".o"},
                         g.args(), name, target)
        ptx = subprocess.run(["strings", "-n", "3", stem + ".o"], capture_output=True, text=True).stdout
        ops = re.findall(r"\b(dp2a\.[a-z0-9.]*|dp4a\.[a-z0-9.]*|ld\.global[a-z0-9.]*|ld\.local[a-z0-9.]*|mad\.[a-z0-9.]*)", ptx)
        print(f"{name}: {({o: ops.count(o) for o in sorted(set(ops))})}")
    hl.compile_standalone_runtime(os.path.join(out_dir, "halide_runtime.o"), hl.Target("x86-64-linux-cuda-cuda_capability_86"))


if __name__ == "__main__":
    check_cpu() if sys.argv[1:] == ["cpu"] else compile_cuda(sys.argv[1])
