# Probe (issue 28): the box's running sums with the image read AND written as
# 32-bit words (4 pixels), so that a thread's 16 pixels of a row are one
# 16-byte load and one 16-byte store. Several schedules of the same algorithm,
# each compiled for CUDA into DIR (object + header), with one Halide runtime
# object, for reports/halide/probes/probe_time.cpp to check and time on the GPU.
# usage: .venv/bin/python reports/halide/probes/box_words_io.py cpu   (exact against NumPy, JIT)
#        .venv/bin/python reports/halide/probes/box_words_io.py DIR   (CUDA objects + PTX facts)
# Input rows: 16-byte aligned, the row stride a multiple of 4 words; pixels
# past `width` in the last word are read but feed no output (clamped).
import os
import re
import subprocess
import sys

import halide as hl
import numpy as np

from box_gold import box_np, realize_on_words  # the gold, beside this script

S, W = 16, 16  # strip rows, chunk columns (generators/box.h's kStripRows, kChunk)


class Box:
    """The algorithm: words in, packed column sums, running row sums, words out."""

    def __init__(self):
        self.words = hl.ImageParam(hl.UInt(32), 2, "words")
        self.width = hl.Param(hl.Int(32), "width")  # pixels
        self.r = hl.Param(hl.Int(32), "radius")
        words, r = self.words, self.r
        for d in range(2):
            words.dim(d).set_min(0)
        words.dim(1).set_stride((words.dim(1).stride() // 4) * 4)
        words.set_host_alignment(16)
        self.wx, self.x, self.y, self.k, self.s, self.p = [hl.Var(n) for n in "wx x y k s p".split()]
        self.xk, self.xs = hl.Var("xk"), hl.Var("xs")
        wx, x, y, k, s, p, xk, xs = self.wx, self.x, self.y, self.k, self.s, self.p, self.xk, self.xs
        nw, h = words.width(), words.height()
        cw = hl.Func("cw")
        cw[wx, y] = words[hl.clamp(hl.likely(wx), 0, nw - 1), hl.clamp(y, 0, h - 1)]
        pick = lambda e, pp: hl.select(pp == 0, e & 0x00FF00FF, (e >> 8) & 0x00FF00FF)
        self.col = col = hl.Func("col")  # (wx, p, k, s): packed sums of bytes 4wx+p, 4wx+p+2
        self.j = j = hl.RDom([(-r, 2 * r + 1)], "j")
        self.down = down = hl.RDom([(1, S - 1)], "down")
        col[wx, p, k, s] = hl.undef(hl.UInt(32))
        col[wx, p, 0, s] = hl.u32(0)
        col[wx, p, 0, s] += pick(cw[wx, s * S + j.x], p)
        col[wx, p, down.x, s] = (col[wx, p, down.x - 1, s] + pick(cw[wx, s * S + down.x + r], p)
                                 - pick(cw[wx, s * S + down.x - r - 1], p))
        cx = hl.Func("cx")  # the column sum of pixel column x, clamped at the image's edge
        xc = hl.clamp(x, 0, self.width - 1)
        packed = col[xc / 4, (xc % 4) % 2, y % S, y / S]
        cx[x, y] = hl.select(xc % 4 < 2, packed & 0xFFFF, packed >> 16)
        self.hs = hs = hl.Func("hs")
        i = hl.RDom([(-r, 2 * r + 1)], "i")
        self.across = across = hl.RDom([(1, W - 1)], "across")
        hs[xk, xs, y] = hl.undef(hl.UInt(32))
        hs[0, xs, y] = hl.u32(0)
        hs[0, xs, y] += cx[xs * W + i.x, y]
        hs[across.x, xs, y] = hs[across.x - 1, xs, y] + cx[xs * W + across.x + r, y] - cx[xs * W + across.x - r - 1, y]
        n = (2 * r + 1) * (2 * r + 1)
        px = lambda xx: hl.u32((hs[xx % W, xx / W, y] + n // 2) / n)
        self.out = out = hl.Func("out")
        out[wx, y] = px(4 * wx) | (px(4 * wx + 1) << 8) | (px(4 * wx + 2) << 16) | (px(4 * wx + 3) << 24)
        # The output as the input: from (0, 0), rows 16-byte aligned, so that a
        # thread's 4 words are one aligned store and its chunk a constant.
        ob = out.output_buffer()
        for d in range(2):
            ob.dim(d).set_min(0)
        ob.dim(1).set_stride((ob.dim(1).stride() // 4) * 4)
        ob.set_host_alignment(16)

    def args(self):
        return [self.words, self.width, self.r]


def schedule_strips(box, threads, vector_out, unroll_down=False, first_split=0):
    """Strips of 16 rows x `threads` chunks of 16 pixels a block; the column
    sums in shared memory (4 words a thread, 16-byte loads), the row sums in
    registers, 4 output words a thread (one 16-byte store when vectorized)."""
    wxo, wxi, wt, wv, yo, yi = [hl.Var(n) for n in "wxo wxi wt wv yo yi".split()]
    out = box.out
    out.split(box.wx, wxo, wxi, threads * 4, hl.TailStrategy.GuardWithIf).split(wxi, wt, wv, 4)
    out.split(box.y, yo, yi, S, hl.TailStrategy.GuardWithIf).reorder(wv, yi, wt, wxo, yo)
    out.gpu_blocks(wxo, yo).gpu_threads(wt)
    (out.vectorize if vector_out else out.unroll)(wv)
    box.hs.compute_at(out, yi).store_in(hl.MemoryType.Register).bound_storage(box.xk, W) \
        .bound_storage(box.xs, 1).bound_storage(box.y, 1).unroll(box.xk)
    box.hs.update(0).unscheduled()
    box.hs.update(1).unscheduled()
    box.hs.update(2).unroll(box.across.x)
    box.col.compute_at(out, wxo).store_in(hl.MemoryType.GPUShared).bound_storage(box.p, 2).align_bounds(box.wx, 4)
    for u in range(3):
        st = box.col.update(u)
        wo, wa, wb, wv2 = hl.Var("wo"), hl.Var("wa"), hl.Var("wb"), hl.Var("wv2")
        st.split(box.wx, wo, wv2, 4, hl.TailStrategy.RoundUp).split(wo, wa, wb, threads, hl.TailStrategy.GuardWithIf)
        st.vectorize(wv2).unroll(box.p).gpu_threads(wb)
        if u == 1 and first_split:
            # The first sum of a strip: 2r+1 rows, `first_split` loads in flight.
            jo, ji = hl.RVar("jo"), hl.RVar("ji")
            st.split(box.j.x, jo, ji, first_split, hl.TailStrategy.GuardWithIf).unroll(ji)
        if u == 2:
            st.reorder(wv2, box.p, box.down.x, wa, wb)
            if unroll_down:
                # The 15 steps down the strip unrolled: their loads issue together
                # instead of one round trip to memory per step.
                st.unroll(box.down.x)


SCHEDULES = {  # name: (schedule, its arguments)
    "words_t32v": (schedule_strips, (32, True)),
    "words_t64v": (schedule_strips, (64, True)),
    "words_t64v_down": (schedule_strips, (64, True, True)),
    "words_t64v_down_j4": (schedule_strips, (64, True, True, 4)),
    "words_t32v_down_j4": (schedule_strips, (32, True, True, 4)),
}


def check_cpu():
    box = Box()
    for (hh, ww) in [(1, 16), (37, 64), (130, 272), (33, 61)]:
        for rr in (1, 7, 15):
            a = np.random.default_rng(hh + ww + rr).integers(0, 256, (hh, ww), dtype=np.uint8)
            assert (realize_on_words(box, a, rr) == box_np(a, rr)).all(), (hh, ww, rr)
    print("word-in word-out running sums: exact on the CPU")


def compile_cuda(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    target = hl.Target("x86-64-linux-cuda-cuda_capability_86-no_runtime")
    for name, (schedule, args) in SCHEDULES.items():
        box = Box()
        schedule(box, *args)
        stem = os.path.join(out_dir, name)
        box.out.compile_to({hl.OutputFileType.c_header: stem + ".h", hl.OutputFileType.object: stem + ".o",
                            hl.OutputFileType.stmt: stem + ".stmt"}, box.args(), name, target)
        ptx = subprocess.run(["strings", "-n", "3", stem + ".o"], capture_output=True, text=True).stdout
        ops = re.findall(r"\b(ld\.global[a-z0-9.]*|st\.global[a-z0-9.]*|ld\.local[a-z0-9.]*|st\.local[a-z0-9.]*|bar\.sync)", ptx)
        counts = {o: ops.count(o) for o in sorted(set(ops))}
        print(f"{name}: {counts}")
    hl.compile_standalone_runtime(os.path.join(out_dir, "halide_runtime.o"), hl.Target("x86-64-linux-cuda-cuda_capability_86"))


if __name__ == "__main__":
    check_cpu() if sys.argv[1:] == ["cpu"] else compile_cuda(sys.argv[1])
