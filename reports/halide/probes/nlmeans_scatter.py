# Probe (issue 30): NL-means' symmetric algorithm as a scatter, the way the
# hand kernel hw_symmetric reuses its weights (w(x; d) = w(x + d; -d)): one
# Halide update over an RDom (k, c, sx, sy, ox, oy) of sources S and offsets
# of half the window H = {dy > 0} or {dy = 0, dx > 0} that accumulates
#     acc(S + k*d, c) += w(S; d) * (c == 0 ? J(S + (1 - k)*d) : 1)
# i.e. k = 0 the forward term (S gets w J(S + d)), k = 1 the backward one
# (S + d gets w J(S)), c = 1 the denominator; k and c are unrolled, so the
# weight Func w(x, y, dx, dy), computed at the offset (or source) RVar, is
# evaluated once per (S, d) and used four times. The zero offset (weight 1)
# is acc's pure definition. Sources run over [-s, W + s) x [-s, H) (sources
# outside the image give backward terms inside it); an RDom.where drops
# targets outside the image. Gray, float weights, clamp border as
# ../shared/FILTERS.md; h a Param, p and s fixed per pipeline.
# `cpu`: JIT on the CPU (default schedule and the w-once structure) against a
# NumPy double reference, FILTERS.md's tolerance (every sample within 1, at
# least 99% equal). DIR: compiles CUDA variants (.atomic() updates, the
# source RVars gpu_blocks/gpu_threads, the offsets serial) for
# x86-64-linux-cuda-cuda_capability_86-no_runtime, prints Halide's error for
# those it rejects and PTX counts for those it accepts, and the standalone
# runtime. GPU check and timing: reports/halide/probes/nlmeans_time.cpp, built by
#     bash reports/halide/probes/build_probe.sh nlmeans_scatter OUT_DIR nlmeans_time     (here, needs Halide)
#     OUT_DIR/nlmeans_time                             (on the GPU machine)
# usage: .venv/bin/python reports/halide/probes/nlmeans_scatter.py cpu | DIR
import os
import re
import subprocess
import sys

import halide as hl
import numpy as np


class Scatter:
    """The scatter form of the symmetric algorithm; f(input, h, out)."""

    def __init__(self, p, s, name="nlmeans_scatter"):
        self.p, self.s = p, s
        self.inp = inp = hl.ImageParam(hl.UInt(8), 2, "input")
        self.h = hl.Param(hl.Float(32), "h")
        for d in range(2):
            inp.dim(d).set_min(0)
        W, H = inp.width(), inp.height()
        x, y, c, dx, dy = [hl.Var(n) for n in "x y c dx dy".split()]
        self.x, self.y, self.c, self.dx, self.dy = x, y, c, dx, dy
        self.J = J = hl.Func("J")
        J[x, y] = hl.f32(inp[hl.clamp(x, 0, W - 1), hl.clamp(y, 0, H - 1)])
        self.diff = diff = hl.Func("diff")
        e = J[x, y] - J[x + dx, y + dy]
        diff[x, y, dx, dy] = e * e
        self.across = across = hl.RDom([(-p, 2 * p + 1)], "across")
        self.rows = rows = hl.Func("patch_rows")
        rows[x, y, dx, dy] = 0.0
        rows[x, y, dx, dy] += diff[x + across.x, y, dx, dy]
        self.down = down = hl.RDom([(-p, 2 * p + 1)], "down")
        self.patch = patch = hl.Func("patch_sum")
        patch[x, y, dx, dy] = 0.0
        patch[x, y, dx, dy] += rows[x, y + down.x, dx, dy]
        P = float((2 * p + 1) ** 2)
        self.w = w = hl.Func("w")
        w[x, y, dx, dy] = hl.exp(-patch[x, y, dx, dy] * (1.0 / (P * self.h * self.h)))
        self.acc = acc = hl.Func("acc")
        acc[x, y, c] = hl.select(c == 0, J[x, y], 1.0)
        self.r = r = hl.RDom([(0, 2), (0, 2), (-s, W + 2 * s), (-s, H + s), (-s, 2 * s + 1), (0, s + 1)], "r")
        k, rc, sx, sy, ox, oy = [r[i] for i in range(6)]
        tx, ty = sx + k * ox, sy + k * oy
        r.where((oy > 0) | (ox > 0))
        r.where((tx >= 0) & (tx < W) & (ty >= 0) & (ty < H))
        sample = hl.select(rc == 0, J[sx + (1 - k) * ox, sy + (1 - k) * oy], 1.0)
        acc[tx, ty, rc] += w[sx, sy, ox, oy] * sample
        self.out = out = hl.Func(name)
        out[x, y] = hl.u8(hl.floor(hl.clamp(acc[x, y, 0] / acc[x, y, 1], 0.0, 255.0) + 0.5))
        ob = out.output_buffer()
        for d in range(2):
            ob.dim(d).set_min(0)

    def rvars(self):
        return [self.r[i] for i in range(6)]

    def args(self):
        return [self.inp, self.h]


def w_once(g):
    """CPU: the weight computed at the offset level (once per (S, d)), the
    patch sums under it, acc at root."""
    k, rc, sx, sy, ox, oy = g.rvars()
    g.acc.compute_root()
    g.acc.update().reorder(k, rc, ox, oy, sx, sy).unroll(k).unroll(rc)
    g.w.compute_at(g.acc, ox)
    g.patch.compute_at(g.acc, ox)


def gold(a, p, s, h):
    """FILTERS.md's NL-means, gray, in double precision (before rounding)."""
    H, W = a.shape
    J = np.pad(a.astype(np.float64), s + p, mode="edge")
    P = (2 * p + 1) ** 2
    o = s + p
    num = np.zeros((H, W))
    den = np.zeros((H, W))
    for dy in range(-s, s + 1):
        for dx in range(-s, s + 1):
            d2 = np.zeros((H, W))
            for j in range(-p, p + 1):
                for i in range(-p, p + 1):
                    a0 = J[o + j:o + j + H, o + i:o + i + W]
                    a1 = J[o + dy + j:o + dy + j + H, o + dx + i:o + dx + i + W]
                    d2 += (a0 - a1) ** 2
            w = np.exp(-d2 / P / (h * h))
            num += w * J[o + dy:o + dy + H, o + dx:o + dx + W]
            den += w
    return np.floor(np.clip(num / den, 0, 255) + 0.5)


def within(got, want):
    d = np.abs(got.astype(np.float64) - want)
    return d.max() <= 1 and (d == 0).mean() >= 0.99, d.max(), (d == 0).mean()


def check_case(g, p, s, H, W, label):
    """Runs pipeline g (h = 10) on a random H x W image on the CPU and checks
    it against the gold within FILTERS.md's tolerance."""
    a = np.random.default_rng(H * W + p).integers(0, 256, (H, W), dtype=np.uint8)
    g.inp.set(hl.Buffer(a))
    g.h.set(10.0)
    got = np.asarray(g.out.realize([W, H]))
    ok, dmax, eq = within(got, gold(a, p, s, 10.0))
    print(f"cpu {label} p={p} s={s:2d} {W:2d}x{H:<2d}: max |diff| {dmax:.0f}, {eq:.2%} equal"
          + ("" if ok else "  OUTSIDE TOLERANCE"))
    assert ok


def check_cpu():
    for sched in ("default", "w_once"):
        for (p, s) in ((1, 2), (2, 3), (3, 10)):
            # (the default schedule, patch sums at root, is slow in the JIT at
            # s = 10: 89 s for 41 x 23; it only checks the algorithm)
            sizes = [(1, 1), (7, 13), (3, 2), (37, 29)] if s < 10 else \
                [(1, 1), (10, 10)] if sched == "default" else [(1, 1), (23, 41), (61, 64)]
            for (H, W) in sizes:
                g = Scatter(p, s)
                if sched == "w_once":
                    w_once(g)
                check_case(g, p, s, H, W, f"{sched:7s}")


# ---- CUDA variants -------------------------------------------------------

def out_tiles(g):
    xo, yo, xi, yi = [hl.Var(n) for n in "xo yo xi yi".split()]
    g.out.compute_root().gpu_tile(g.x, g.y, xo, yo, xi, yi, 32, 8, hl.TailStrategy.GuardWithIf)
    g.acc.compute_root().gpu_tile(g.x, g.y, xo, yo, xi, yi, 32, 8, hl.TailStrategy.GuardWithIf).unroll(g.c)


def source_blocks(g, inner, tw=32, th=8, atomic=True):
    """acc's update over blocks of tw x th sources (threads), the loops in
    `inner` (names among k rc sxi syi ox oy, innermost first) inside the
    blocks, k and rc unrolled; atomic adds unless `atomic` is off."""
    k, rc, sx, sy, ox, oy = g.rvars()
    sxo, sxi, syo, syi = hl.RVar("sxo"), hl.RVar("sxi"), hl.RVar("syo"), hl.RVar("syi")
    named = {"k": k, "rc": rc, "sxi": sxi, "syi": syi, "ox": ox, "oy": oy}
    st = g.acc.update()
    if atomic:
        st = st.atomic()
    st.split(sx, sxo, sxi, tw).split(sy, syo, syi, th) \
        .reorder(*[named[n] for n in inner.split()], sxo, syo).unroll(k).unroll(rc) \
        .gpu_blocks(sxo, syo).gpu_threads(sxi, syi)
    return sxi


def v_thread(g, tw=32, th=8):
    """A thread per source, its offsets a serial loop inside it; the weight
    and its patch sums at the offset level, in registers; atomics to global."""
    out_tiles(g)
    source_blocks(g, "k rc ox oy sxi syi", tw, th)
    ox = g.rvars()[4]
    g.w.compute_at(g.acc, ox)
    g.patch.compute_at(g.acc, ox).update().unroll(g.down.x)
    g.rows.compute_at(g.acc, ox).unroll(g.y).update().unroll(g.y).unroll(g.across.x)


def v_thread_noreorder(g):
    """As v_thread without .atomic(): what Halide says about the race."""
    out_tiles(g)
    source_blocks(g, "k rc ox oy sxi syi", atomic=False)
    g.w.compute_at(g.acc, g.rvars()[4])


def v_staged(g, tw=32, th=8):
    """The hand kernel's loop order: blocks of sources, the offsets a serial
    loop between blocks and threads; per offset the block's row sums in
    shared memory (threads over the tile + patch halo), then per thread its
    source's patch sum and weight in registers; atomics to global."""
    out_tiles(g)
    sxi = source_blocks(g, "k rc sxi syi ox oy", tw, th)
    ox = g.rvars()[4]
    g.w.compute_at(g.acc, sxi)
    g.patch.compute_at(g.acc, sxi).update().unroll(g.down.x)
    ro, ri, qo, qi = [hl.Var(n) for n in "ro ri qo qi".split()]
    g.rows.compute_at(g.acc, ox).store_in(hl.MemoryType.GPUShared) \
        .tile(g.x, g.y, ro, qo, ri, qi, tw, th, hl.TailStrategy.GuardWithIf).gpu_threads(ri, qi)
    g.rows.update().tile(g.x, g.y, ro, qo, ri, qi, tw, th, hl.TailStrategy.GuardWithIf) \
        .unroll(g.across.x).gpu_threads(ri, qi)


class ScatterShared(Scatter):
    """The shared-accumulator variant: a block's scatter goes first into a
    GPUShared accumulator over its tile and s-halo, `part(lx, ly, c, bx, by)`
    in tile-local coordinates with the block index pure, then the block adds
    it to the global accumulator with atomics (a second scatter update)."""

    def __init__(self, p, s, tw=32, th=8, name="nlmeans_scatter_shared"):
        super().__init__(p, s, name)
        self.tw, self.th = tw, th
        W, H = self.inp.width(), self.inp.height()
        lx, ly, c, bx, by = [hl.Var(n) for n in "lx ly c bx by".split()]
        self.lx, self.ly, self.bx, self.by = lx, ly, bx, by
        J, w = self.J, self.w
        # Block (bx, by) owns sources [bx*tw - s, +tw) x [by*th - s, +th);
        # its targets lie in [0, tw + 2s) x [0, th + s) local, origin at the
        # tile's (-s, 0) corner.
        self.part = part = hl.Func("part")
        part[lx, ly, c, bx, by] = 0.0
        q = hl.RDom([(0, 2), (0, 2), (0, tw), (0, th), (-s, 2 * s + 1), (0, s + 1)], "q")
        self.q = q
        k, rc, ix, iy, ox, oy = [q[i] for i in range(6)]
        sx, sy = bx * tw - s + ix, by * th - s + iy
        tx, ty = sx + k * ox, sy + k * oy
        q.where((oy > 0) | (ox > 0))
        q.where((tx >= 0) & (tx < W) & (ty >= 0) & (ty < H))
        sample = hl.select(rc == 0, J[sx + (1 - k) * ox, sy + (1 - k) * oy], 1.0)
        part[ix + k * ox + s, iy + k * oy, rc, bx, by] += w[sx, sy, ox, oy] * sample
        # The merge: every block adds its window to the global accumulator.
        nbx = (W + 2 * s + tw - 1) // tw
        nby = (H + s + th - 1) // th
        self.m = m = hl.RDom([(0, 2), (0, tw + 2 * s), (0, th + s), (0, nbx), (0, nby)], "m")
        mc, mx, my, mbx, mby = [m[i] for i in range(5)]
        gx, gy = mbx * tw - 2 * s + mx, mby * th - s + my
        m.where((gx >= 0) & (gx < W) & (gy >= 0) & (gy < H))
        x, y = self.x, self.y
        self.acc2 = acc2 = hl.Func("acc2")
        acc2[x, y, c] = hl.select(c == 0, J[x, y], 1.0)
        acc2[gx, gy, mc] += part[mx, my, mc, mbx, mby]
        self.out = out = hl.Func(name)
        out[x, y] = hl.u8(hl.floor(hl.clamp(acc2[x, y, 0] / acc2[x, y, 1], 0.0, 255.0) + 0.5))
        ob = out.output_buffer()
        for d in range(2):
            ob.dim(d).set_min(0)


def v_shared(g):
    xo, yo, xi, yi = [hl.Var(n) for n in "xo yo xi yi".split()]
    g.out.compute_root().gpu_tile(g.x, g.y, xo, yo, xi, yi, 32, 8, hl.TailStrategy.GuardWithIf)
    g.acc2.compute_root().gpu_tile(g.x, g.y, xo, yo, xi, yi, 32, 8, hl.TailStrategy.GuardWithIf).unroll(g.c)
    mc, mx, my, mbx, mby = [g.m[i] for i in range(5)]
    mxo, mxi, myo, myi = hl.RVar("mxo"), hl.RVar("mxi"), hl.RVar("myo"), hl.RVar("myi")
    g.acc2.update().atomic().split(mx, mxo, mxi, g.tw).split(my, myo, myi, g.th) \
        .reorder(mc, mxi, myi, mxo, myo, mbx, mby).unroll(mc).gpu_blocks(mbx, mby).gpu_threads(mxi, myi)
    k, rc, ix, iy, ox, oy = [g.q[i] for i in range(6)]
    px, py, pxo, pyo = [hl.Var(n) for n in "px py pxo pyo".split()]
    g.part.compute_at(g.acc2, mbx).store_in(hl.MemoryType.GPUShared) \
        .tile(g.lx, g.ly, pxo, pyo, px, py, g.tw, g.th, hl.TailStrategy.GuardWithIf).unroll(g.c).gpu_threads(px, py)
    g.part.update().atomic().reorder(k, rc, ox, oy, ix, iy).unroll(k).unroll(rc).gpu_threads(ix, iy)
    g.w.compute_at(g.part, ox)
    g.patch.compute_at(g.part, ox).update().unroll(g.down.x)
    g.rows.compute_at(g.part, ox).unroll(g.y).update().unroll(g.y).unroll(g.across.x)


def check_shared_cpu():
    """The shared variant's algorithm (part + merge) on the CPU, part computed
    per block (at the merge's block RVar), the weight once per (S, d)."""
    for (p, s) in ((1, 2), (3, 10)):
        for (H, W) in ((1, 1), (7, 13), (37, 29), (61, 64)):
            g = ScatterShared(p, s)
            k, rc, ix, iy, ox, oy = [g.q[i] for i in range(6)]
            g.acc2.compute_root()
            g.part.compute_at(g.acc2, g.m[3])
            g.part.update().reorder(k, rc, ox, oy, ix, iy).unroll(k).unroll(rc)
            g.w.compute_at(g.part, ox)
            g.patch.compute_at(g.part, ox)
            check_case(g, p, s, H, W, "shared ")


VARIANTS = [
    ("scatter_noatomic", Scatter, v_thread_noreorder),
    ("scatter_thread", Scatter, v_thread),
    ("scatter_staged", Scatter, v_staged),
    ("scatter_shared", ScatterShared, v_shared),
]

OPS = r"\b(ex2\.[a-z0-9.]*|atom\.[a-z0-9.]*|red\.[a-z0-9.]*|ld\.local[a-z0-9.]*|st\.local[a-z0-9.]*|" \
      r"ld\.global[a-z0-9.]*|ld\.shared[a-z0-9.]*|bar\.sync)"


def compile_cuda(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    target = hl.Target("x86-64-linux-cuda-cuda_capability_86-no_runtime")
    p, s = 3, 10
    print(f"p={p} s={s}: {(2 * s + 1) ** 2 // 2} offsets in H; counts are static PTX instructions per kernel")
    for name, cls, sched in VARIANTS:
        stem = os.path.join(out_dir, name)
        try:
            g = cls(p, s, name=name)
            sched(g)
            g.out.compile_to({hl.OutputFileType.c_header: stem + ".h", hl.OutputFileType.object: stem + ".o"},
                             g.args(), name, target)
        except Exception as e:  # Halide's message, as it says it
            msg = " ".join(str(e).split())
            print(f"{name}: REJECTED: {msg}")
            for f in (stem + ".h", stem + ".o"):
                if os.path.exists(f):
                    os.remove(f)
            continue
        ptx = subprocess.run(["strings", "-n", "3", stem + ".o"], capture_output=True, text=True).stdout
        kernels = re.split(r"\.entry\s+", ptx)[1:]
        print(f"{name}: compiles, {len(kernels)} kernels")
        for kern in kernels:
            kname = kern.split("(")[0].strip()
            # Halide's exp is its own polynomial (no ex2): one reduction by
            # ln 2, whose high part 0fBF317200 marks each inlined exp.
            ops = re.findall(OPS, kern) + ["exp(poly)"] * kern.count("0fBF317200")
            depot = re.findall(r"__local_depot\d+\[(\d+)\]", kern)
            print(f"  {kname}: {({o: ops.count(o) for o in sorted(set(ops))})}"
                  + (f" local depot {depot[0]} B" if depot else ""))
    hl.compile_standalone_runtime(os.path.join(out_dir, "halide_runtime.o"),
                                  hl.Target("x86-64-linux-cuda-cuda_capability_86"))


if __name__ == "__main__":
    if sys.argv[1:] == ["cpu"]:
        check_cpu()
        check_shared_cpu()
    else:
        compile_cuda(sys.argv[1])
