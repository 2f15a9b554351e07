# Probe (issue 28): can Halide 21 express hw_running_sums' layout, i.e. each
# lane's column sums in registers (packed two 16-bit sums a word) and the
# horizontal window's neighbouring columns taken from the next lanes by warp
# shuffles (gpu_lanes, LowerWarpShuffles), with no shared memory?
# The algorithm is written in a warp's coordinates: band b is a warp of 32
# lanes; lane L owns W words (4W pixels) of the image, group (32-2H)b - H + L
# (W = 4: words 120b-4+4L .. +3); the H halo lanes each side (lanes 0 and 31
# when W = 4) compute column sums but store no output, as in the hand kernel.
# (The output's lane loop has 32-2H lanes from thread 0, so output lane l's
# own column sums live in thread l+H: Halide reads them by shfl.down too.) col(v, p, L, k, s, b): the packed column sums
# of word v of lane L, pixels 4w+p and 4w+p+2, row k of strip s (S rows);
# hs(i, g, y): the horizontal sum at pixel i of the image's run g of 4W pixels
# (lane g % (32-2H) + H of band g / (32-2H)), sliding across the run and
# reading col of lanes L-1, L, L+1 (constant offsets once the radius is a
# constant: the output is specialised on r = 1..15).
# Variants: S rows per strip in registers, W words per lane, the column loads
# unrolled per word or vectorised (v) across the lane's words.
# usage: .venv/bin/python reports/halide/probes/box_lanes.py cpu   (exact against NumPy, JIT)
#        .venv/bin/python reports/halide/probes/box_lanes.py DIR   (CUDA objects + PTX facts; ptxas -v)
# The pipelines follow probe_time.cpp's convention: f(words, width, radius,
# out_words), rows of 32-bit words from (0, 0), 16-byte aligned.
import os
import re
import subprocess
import sys

import halide as hl
import numpy as np

from box_gold import box_np, realize_on_words  # the gold, beside this script

RMAX = 15  # the radii the output is specialised for: 1..RMAX (the hand kernel's)


class Box:
    """Band coordinates: S rows a strip, W words (4W pixels) a lane, H halo lanes a side."""

    def __init__(self, S, W):
        self.S, self.W = S, W
        self.H = H = -(-RMAX // (4 * W))  # lanes of halo each side: ceil(RMAX / 4W)
        self.out_lanes = 32 - 2 * H
        self.band = band = self.out_lanes * W  # output words a warp
        self.words = hl.ImageParam(hl.UInt(32), 2, "words")
        self.width = hl.Param(hl.Int(32), "width")  # pixels
        self.r = hl.Param(hl.Int(32), "radius")
        words, width, r = self.words, self.width, self.r
        for d in range(2):
            words.dim(d).set_min(0)
        words.dim(0).set_extent((words.dim(0).extent() // 4) * 4)
        words.dim(1).set_stride((words.dim(1).stride() // 4) * 4)
        words.set_host_alignment(16)
        v, p, L, k, s, b, i, y, wx = [hl.Var(n) for n in "v p L k s b i y wx".split()]
        self.v, self.p, self.L, self.k, self.s, self.b, self.i, self.y, self.wx = v, p, L, k, s, b, i, y, wx
        nw, h = words.width(), words.height()
        yc = hl.clamp(y, 0, h - 1)
        # Word w of a row with each byte clamped to the image (FILTERS.md's clamp
        # border): the word itself, its bytes outside the image replaced by the
        # edge pixel (branch-free: masks from w).
        left = words[0, yc] & 0xFF
        xr = width - 1
        right = (words[xr / 4, yc] >> hl.u32(8 * (xr % 4))) & 0xFF
        # cw(v, G, y): word v of the image's group G of W words (a lane's), the
        # group's load clamped whole (so a lane's W words can be one vector).
        G = hl.Var("G")
        self.G = G
        cw = hl.Func("cw")
        w = W * G + v
        n_in = hl.clamp(width - 4 * w, 0, 4)  # bytes of word w inside, when w >= 0
        keep = hl.select(w < 0, hl.u32(0),
                         hl.select(n_in >= 4, hl.u32(0xFFFFFFFF), (hl.u32(1) << hl.u32(8 * n_in)) - 1))
        edge = hl.select(w < 0, left, right) * hl.u32(0x01010101)
        cw[v, G, y] = (words[W * hl.clamp(G, 0, nw / W - 1) + v, yc] & keep) | (edge & ~keep)
        pick = lambda e, pp: hl.select(pp == 0, e & 0x00FF00FF, (e >> 8) & 0x00FF00FF)
        grp = self.out_lanes * b - H + L  # the image's word group of lane L of band b
        self.col = col = hl.Func("col")
        self.j = j = hl.RDom([(-r, 2 * r + 1)], "j")
        self.down = down = hl.RDom([(1, S - 1)], "down")
        col[v, p, L, k, s, b] = hl.undef(hl.UInt(32))
        col[v, p, L, 0, s, b] = hl.u32(0)
        col[v, p, L, 0, s, b] += pick(cw[v, grp, s * S + j.x], p)
        col[v, p, L, down.x, s, b] = (col[v, p, L, down.x - 1, s, b] + pick(cw[v, grp, s * S + down.x + r], p)
                                      - pick(cw[v, grp, s * S + down.x - r - 1], p))
        P = 4 * W  # pixels a lane

        # hs(i, g, y): the window sum (+ n/2) at pixel i of the image's run g of
        # P pixels, the run of lane g % out_lanes + H of band g / out_lanes.
        self.hs = hs = hl.Func("hs")
        g = self.g = hl.Var("g")
        self.across = across = hl.RDom([(1, P - 1)], "across")
        n = (2 * r + 1) * (2 * r + 1)
        self.n = n
        LL, bb = g % self.out_lanes + H, g / self.out_lanes
        hs[i, g, y] = hl.undef(hl.UInt(32))
        hs[0, g, y] = hl.u32(n / 2)
        # The window's first sum over an RDom of 2r+1 columns, then the slide:
        # the columns' lanes and words are constants once the output is
        # specialised on r and these loops are unrolled (see schedule()).
        self.i_win = iw = hl.RDom([(-r, 2 * r + 1)], "iw")
        hs[0, g, y] += self._col_dyn(LL, iw.x, y, bb)
        hs[across.x, g, y] = (hs[across.x - 1, g, y] + self._col_dyn(LL, across.x + r, y, bb)
                              - self._col_dyn(LL, across.x - 1 - r, y, bb))
        # Output word wx: pixels 4wx .. 4wx+3, of run wx / W.
        q = lambda t: hl.u32(hs[(4 * wx + t) % P, wx / W, y] / n)
        self.out = out = hl.Func("out")
        out[wx, y] = q(0) | (q(1) << 8) | (q(2) << 16) | (q(3) << 24)
        ob = out.output_buffer()
        for d in range(2):
            ob.dim(d).set_min(0)
        ob.dim(1).set_stride((ob.dim(1).stride() // 4) * 4)
        ob.set_host_alignment(16)

    def _col_dyn(self, LL, c, yy, bb):
        """colsum at a pixel offset c that is an Expr: a constant once r is one
        and the loops are unrolled. The lane (c // P) and the word are computed
        from c; after specialisation and unrolling they fold to constants."""
        P, S = 4 * self.W, self.S
        dl, cc = c / P, c % P  # Halide's Int division and modulo: floor, and 0 .. P-1
        e = self.col[cc / 4, cc % 2, LL + dl, yy % S, yy / S, bb]
        return hl.select((cc % 4) < 2, e & 0xFFFF, e >> 16)

    def args(self):
        return [self.words, self.width, self.r]


def schedule(box, gpu, vec_cols=False, warps=1, radii=range(1, RMAX + 1)):
    """out: a block is `warps` warps stacked in strips; lane l makes W output
    words (4W pixels) of each of the strip's S rows (unrolled). col: at the
    warp, in registers, one lane per L (32), down the strip unrolled. hs: at
    the output row, in registers, unrolled."""
    S, W = box.S, box.W
    out, col, hs = box.out, box.col, box.hs
    wxo, wxi, l, wv, yo, yi, yb, yw = [hl.Var(n) for n in "wxo wxi l wv yo yi yb yw".split()]
    outs = [out.specialize(box.r == rr) for rr in radii]
    out.specialize_fail("box_lanes: radius must be one of the specialised ones (1..15)")
    for o in [out] + outs:
        o.split(box.wx, wxo, wxi, box.band, hl.TailStrategy.GuardWithIf).split(wxi, l, wv, W)
        o.split(box.y, yo, yi, S, hl.TailStrategy.GuardWithIf).reorder(wv, yi, l, wxo, yo)
        o.unroll(wv).unroll(yi)
        if gpu:
            if warps > 1:
                o.split(yo, yb, yw, warps, hl.TailStrategy.GuardWithIf).reorder(l, yw, wxo, yb)
                o.gpu_blocks(wxo, yb).gpu_threads(yw).gpu_lanes(l)
            else:
                o.gpu_blocks(wxo, yo).gpu_lanes(l)
    at = (yw if warps > 1 else wxo) if gpu else wxo
    col.compute_at(out, at).store_in(hl.MemoryType.Register if gpu else hl.MemoryType.Auto)
    col.bound_storage(box.v, W).bound_storage(box.p, 2).bound_storage(box.L, 32) \
        .bound_storage(box.k, S).bound_storage(box.s, 1).bound_storage(box.b, 1)
    for u in range(3):
        st = col.update(u)
        if vec_cols:
            st.vectorize(box.v)
        else:
            st.unroll(box.v)
        st.unroll(box.p)
        if u == 2:
            st.reorder(box.v, box.p, box.down.x, box.L).unroll(box.down.x)
        if gpu:
            st.gpu_lanes(box.L)
    hs.compute_at(out, yi).store_in(hl.MemoryType.Register if gpu else hl.MemoryType.Auto)
    hs.bound_storage(box.i, 4 * W).bound_storage(box.g, 1).bound_storage(box.y, 1)
    hs.unroll(box.i)
    hs.update(0).unscheduled()
    hs.update(1).unroll(box.i_win.x)
    hs.update(2).unroll(box.across.x)


VARIANTS = {  # name: (S rows a strip, W words a lane, vectorised column loads, warps a block)
    "lanes_s16_w4": (16, 4, False, 1),
    "lanes_s8_w4": (8, 4, False, 1),
    "lanes_s4_w4": (4, 4, False, 1),
    "lanes_s8_w4_v": (8, 4, True, 1),
    "lanes_s8_w4_2w": (8, 4, False, 2),
    "lanes_s8_w2": (8, 2, False, 1),
}


def check_cpu(variants):
    for name in variants:
        S, W, vec, warps = VARIANTS[name]
        box = Box(S, W)
        schedule(box, False, vec, 1, (1, 2, 7, 15))  # the JIT: only the radii checked
        for (hh, ww) in [(1, 1), (1, 16), (37, 64), (130, 272), (33, 61), (17, 523), (5, 1031)]:
            for rr in (1, 2, 7, 15):
                a = np.random.default_rng(hh + ww + rr).integers(0, 256, (hh, ww), dtype=np.uint8)
                assert (realize_on_words(box, a, rr) == box_np(a, rr)).all(), (name, hh, ww, rr)
        print(f"{name}: exact on the CPU (JIT, the same loop nest with serial lanes), "
              f"sizes 1x1..1031x5, r = 1, 2, 7, 15")


OPS = r"\b(shfl\.sync[a-z0-9.]*|ld\.local[a-z0-9.]*|st\.local[a-z0-9.]*|ld\.global[a-z0-9.]*|st\.global[a-z0-9.]*|ld\.shared[a-z0-9.]*|st\.shared[a-z0-9.]*|bar\.sync)"


def ptx_of(obj):
    """The object's strings (for the counts) and the PTX Halide embeds in it: the
    NUL-terminated text from `.version` (for ptxas)."""
    text = subprocess.run(["strings", "-n", "3", obj], capture_output=True, text=True).stdout
    raw = open(obj, "rb").read()
    start = raw.find(b".version")
    if start < 0:
        return text, None
    # Halide's PTX starts with comment lines before .version: ptxas wants .version first.
    return text, raw[start:raw.index(b"\0", start)].decode() + "\n"


def kernel_radii(stmt):
    """{kernel name: radius}, from the launches in the .stmt's host code (one kernel per specialisation)."""
    text = open(stmt, errors="replace").read()
    found, radius = {}, None
    for m in re.finditer(r'radius == (\d+)\) \{|halide_cuda_run\(cuda\[0\], "([A-Za-z0-9_]+)"', text):
        if m.group(1):
            radius = int(m.group(1))
        elif radius is not None:
            found[m.group(2)] = radius
    return found


def ptxas(ptx_path, maxreg=64):
    """ptxas -v at sm_90 (by default at the Halide runtime's 64-register cap): {kernel: (registers,
    spill stores B, spill loads B)}, and any error lines."""
    exe = "/usr/local/cuda/bin/ptxas"
    if not os.path.exists(exe):
        return {}, ["(no ptxas)"]
    res = subprocess.run([exe, "-arch=sm_90", "-v", f"--maxrregcount={maxreg}", ptx_path, "-o", os.devnull],
                         capture_output=True, text=True)
    found, errors, kernel, spill = {}, [], None, (0, 0)
    for line in (res.stderr + res.stdout).splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            kernel = m.group(1)
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m:
            spill = (int(m.group(1)), int(m.group(2)))
        m = re.search(r"Used (\d+) registers", line)
        if m:
            found[kernel] = (int(m.group(1)),) + spill
        if "error" in line.lower():
            errors.append(line)
    return found, errors


def per_kernel_ops(ptx):
    """{kernel: {op: count}} over the PTX's .entry functions."""
    out = {}
    for part in re.split(r"\.visible \.entry ", ptx)[1:]:
        name = part[:part.index("(")]
        ops = re.findall(OPS, part)
        out[name] = {o: ops.count(o) for o in sorted(set(ops))}
    return out


def compile_cuda(out_dir, variants):
    os.makedirs(out_dir, exist_ok=True)
    target = hl.Target("x86-64-linux-cuda-cuda_capability_86-no_runtime")
    for name in variants:
        S, W, vec, warps = VARIANTS[name]
        box = Box(S, W)
        stem = os.path.join(out_dir, name)
        try:
            schedule(box, True, vec, warps)
            box.out.compile_to({hl.OutputFileType.c_header: stem + ".h", hl.OutputFileType.object: stem + ".o",
                                hl.OutputFileType.stmt: stem + ".stmt"}, box.args(), name, target)
        except Exception as e:  # noqa: BLE001 - the probe reports Halide's error
            msg = str(e).strip().splitlines()
            print(f"{name}: Halide error: " + " | ".join(msg[:12]))
            for f in (stem + ".h", stem + ".o"):
                if os.path.exists(f):
                    os.remove(f)
            continue
        text, ptx = ptx_of(stem + ".o")
        ops = re.findall(OPS, text)
        counts = {o: ops.count(o) for o in sorted(set(ops))}
        kernels = len(re.findall(r"\.entry\s", text))
        print(f"{name}: {kernels} kernels; {counts}")
        if ptx:
            with open(stem + ".ptx", "w") as f:
                f.write(ptx)
            radii = kernel_radii(stem + ".stmt")
            ops = per_kernel_ops(ptx)
            by_r = {rr: kn for kn, rr in radii.items()}
            for rr in (1, 7, 15):
                if rr in by_r:
                    o = ops.get(by_r[rr], {})
                    print(f"  r={rr:<2} kernel: " + ", ".join(f"{k} {v}" for k, v in o.items()))
            for maxreg in (64, 255):
                regs, errs = ptxas(stem + ".ptx", maxreg)
                if regs:
                    clean = sum(1 for x in regs.values() if x[1] == 0 and x[2] == 0)
                    line = ", ".join(f"r={rr}: {regs[by_r[rr]][0]} regs, spill st/ld {regs[by_r[rr]][1]}/{regs[by_r[rr]][2]} B"
                                     for rr in (1, 7, 15) if rr in by_r and by_r[rr] in regs)
                    print(f"  ptxas -arch=sm_90 --maxrregcount={maxreg}: {clean}/{len(regs)} kernels without spills; {line}")
                for e in errs[:3]:
                    print("  ptxas: " + e)
    hl.compile_standalone_runtime(os.path.join(out_dir, "halide_runtime.o"), hl.Target("x86-64-linux-cuda-cuda_capability_86"))


if __name__ == "__main__":
    names = sys.argv[2:] or list(VARIANTS)
    check_cpu(names) if sys.argv[1] == "cpu" else compile_cuda(sys.argv[1], names)
