# Probe (issue 28): the box's running sums on a word view of the 8-bit image.
# usage: .venv/bin/python reports/halide/probes/box_words.py cpu   (exact against NumPy)
#        .venv/bin/python reports/halide/probes/box_words.py DIR   (CUDA object, stmt and PTX into DIR)
# The input is read as 32-bit words (4 pixels), column sums are kept packed two
# 16-bit lanes per u32 (even and odd bytes), so the entering/leaving rows are
# 16-byte loads when a thread takes 4 words. Checked on the CPU (JIT) against
# numpy; compiled for CUDA to read its PTX. Width a multiple of 16 here.
import sys
import numpy as np
import halide as hl

from box_gold import box_np  # the gold, beside this script

S, W = 16, 16
words = hl.ImageParam(hl.UInt(32), 2, "words")
r = hl.Param(hl.Int(32), "radius")
words.dim(0).set_min(0); words.dim(1).set_min(0)
words.dim(1).set_stride((words.dim(1).stride() // 4) * 4)
words.set_host_alignment(16)
wx, x, y, k, s, xk, xs = [hl.Var(n) for n in "wx x y k s xk xs".split()]
nw, h = words.width(), words.height()
cw = hl.Func("cw")  # clamped words: rows clamped; columns only inside (the probe's interior)
cw[wx, y] = words[hl.clamp(hl.likely(wx), 0, nw - 1), hl.clamp(y, 0, h - 1)]
even = lambda e: e & 0x00FF00FF
odd = lambda e: (e >> 8) & 0x00FF00FF
col = hl.Func("col")  # (wx, parity, k, s): packed column sums of bytes 4wx+parity, 4wx+parity+2
j = hl.RDom([(-r, 2 * r + 1)], "j")
down = hl.RDom([(1, S - 1)], "down")
p = hl.Var("p")
col[wx, p, k, s] = hl.undef(hl.UInt(32))
col[wx, p, 0, s] = hl.u32(0)
pick = lambda e, pp: hl.select(pp == 0, even(e), odd(e))
col[wx, p, 0, s] += pick(cw[wx, s * S + j.x], p)
col[wx, p, down.x, s] = col[wx, p, down.x - 1, s] + pick(cw[wx, s * S + down.x + r], p) - pick(cw[wx, s * S + down.x - r - 1], p)
# unpack: the column sum of pixel column x at row y
b = x % 4
packed = col[x / 4, b % 2, y % S, y / S]
column = hl.Func("column")
column[x, y] = hl.select(b < 2, packed & 0xFFFF, packed >> 16)
cx = hl.Func("cx")  # clamp columns at the image's edge
width = nw * 4
cx[x, y] = column[hl.clamp(x, 0, width - 1), y]
hs = hl.Func("hs")
i = hl.RDom([(-r, 2 * r + 1)], "i")
across = hl.RDom([(1, W - 1)], "across")
hs[xk, xs, y] = hl.undef(hl.UInt(32))
hs[0, xs, y] = hl.u32(0)
hs[0, xs, y] += cx[xs * W + i.x, y]
hs[across.x, xs, y] = hs[across.x - 1, xs, y] + cx[xs * W + across.x + r, y] - cx[xs * W + across.x - r - 1, y]
n = (2 * r + 1) * (2 * r + 1)
out = hl.Func("out")
out[x, y] = hl.u8((hs[x % W, x / W, y] + n // 2) / n)

if sys.argv[1:] == ["cpu"]:
    for (hh, ww) in [(1, 16), (37, 64), (130, 272)]:
        for rr in (1, 7, 15):
            a = np.random.default_rng(hh + ww + rr).integers(0, 256, (hh, ww), dtype=np.uint8)
            words.set(hl.Buffer(a.view(np.uint32)))
            r.set(rr)
            res = np.asarray(out.realize([ww, hh]))
            assert (res == box_np(a, rr)).all(), (hh, ww, rr)
    print("word-view running sums: exact on the CPU")
    sys.exit(0)

T = 32
out_dir = sys.argv[1]
xo, xi, xt, xw, yo, yi = [hl.Var(n) for n in "xo xi xt xw yo yi".split()]
out.split(x, xo, xi, T * W, hl.TailStrategy.GuardWithIf).split(xi, xt, xw, W).split(y, yo, yi, S, hl.TailStrategy.GuardWithIf)
out.reorder(xw, yi, xt, xo, yo).gpu_blocks(xo, yo).gpu_threads(xt).vectorize(xw)
hs.compute_at(out, yi).store_in(hl.MemoryType.Register).bound_storage(xk, W).bound_storage(xs, 1).bound_storage(y, 1).unroll(xk)
hs.update(0).unscheduled(); hs.update(1).unscheduled(); hs.update(2).unroll(across.x)
col.compute_at(out, xo).store_in(hl.MemoryType.GPUShared).bound_storage(p, 2).align_bounds(wx, 4)
for u in range(3):
    st = col.update(u)
    wa, wb, wv = hl.Var("wa"), hl.Var("wb"), hl.Var("wv")
    wo = hl.Var("wo")
    st.split(wx, wo, wv, 4, hl.TailStrategy.RoundUp).split(wo, wa, wb, T, hl.TailStrategy.GuardWithIf).vectorize(wv).unroll(p).gpu_threads(wb)
    if u == 2:
        st.reorder(wv, p, down.x, wa, wb)
t = hl.Target("x86-64-linux-cuda-cuda_capability_86-no_runtime")
out.compile_to({hl.OutputFileType.c_header: out_dir + "/words.h", hl.OutputFileType.stmt: out_dir + "/words.stmt", hl.OutputFileType.conceptual_stmt: out_dir + "/words.cstmt",
                hl.OutputFileType.object: out_dir + "/words.o"}, [words, r], "words", t)
print("compiled for CUDA")
