# Probe (issue 28): can Halide 21 stream a running sum into its consumer row
# by row, as hw_running_sums streams its column sums into the horizontal pass?
# The column sums of a strip of S rows are a recurrence (an update over an
# RDom `down`); the consumer reads row k of them. Three placements of the
# recurrence, each checked on the CPU (JIT) against NumPy and printed as
# Halide's loop nest (a GPU schedule places stages the same way):
#   strip     computed once per strip (what cuda_sums_strips and
#             cuda_words_strips do: the strip materialised, in shared memory)
#   row       computed at the consumer's row loop: the whole recurrence again
#             for every row (S times the work)
#   row_fold  stored at the strip, computed at the row (a sliding window):
#             Halide slides pure stages only, so this is `row` again
# usage: .venv/bin/python reports/halide/probes/box_streaming.py
import halide as hl
import numpy as np

S, R, N = 16, 2, 64


def pipeline(placement):
    inp = hl.ImageParam(hl.UInt(16), 2, "inp")
    x, y, k, s = hl.Var("x"), hl.Var("y"), hl.Var("k"), hl.Var("s")
    yo, yi = hl.Var("yo"), hl.Var("yi")
    clamped = hl.BoundaryConditions.repeat_edge(inp)
    j = hl.RDom([(-R, 2 * R + 1)], "j")
    down = hl.RDom([(1, S - 1)], "down")
    col = hl.Func("col")
    col[x, k, s] = hl.undef(hl.UInt(16))
    col[x, 0, s] = hl.u16(0)
    col[x, 0, s] += clamped[x, s * S + j.x]
    col[x, down.x, s] = col[x, down.x - 1, s] + clamped[x, s * S + down.x + R] - clamped[x, s * S + down.x - R - 1]
    out = hl.Func("out")
    out[x, y] = col[x, y % S, y / S]
    out.split(y, yo, yi, S)
    if placement == "strip":
        col.compute_at(out, yo)
    elif placement == "row":
        col.compute_at(out, yi)
    else:
        col.store_at(out, yo).compute_at(out, yi)
    return inp, out, col


def check(placement):
    """The placement computes the vertical (2R+1)-row sums exactly (against NumPy)."""
    inp, out, _ = pipeline(placement)
    buf = hl.Buffer(np.random.default_rng(1).integers(0, 256, (N, N), dtype=np.uint16))
    inp.set(buf)
    got = np.asarray(out.realize([N, N]))
    a = np.pad(np.asarray(buf).astype(np.int64), R, mode="edge")
    gold = sum(a[R + dy: R + dy + N, R:R + N] for dy in range(-R, R + 1))
    return bool((got == gold).all())


for placement in ("strip", "row", "row_fold"):
    _, out, _ = pipeline(placement)
    print(f"== {placement}: exact {check(placement)}; Halide's loop nest:")
    out.print_loop_nest()
