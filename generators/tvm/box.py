"""The box (mean) filter's algorithms in TVMScript (FILTERS.md: box).

    out(c, y, x) = ( sum_{|i|<=r, |j|<=r} I(c, y+j, x+i) + n/2 ) / n,  n = (2r+1)^2

Direct sums the (2r+1)^2 window; Separable sums each row's 2r+1 samples
first, then 2r+1 of those row sums down a column (2(2r+1) additions a pixel
instead of (2r+1)^2). Both are exact in 32-bit integers. RunningSums slides
both sums (about 4 additions a pixel for any r); its sums are uint32, whose
wrapping differences (entering - leaving) still leave every total exact, and
whose division by the constant n is nvcc's multiply-high (int32's floordiv
adds a remainder correction).
"""
from tvm.script import tirx as T

from .plane import Algorithm, bordered, clamp, whole


class Direct(Algorithm):
    """The window summed at once: stages `sum` (a reduction) and `output`."""
    sum, output = "sum", "output"

    def __init__(self, radius):
        r, k = radius, 2 * radius + 1
        n = k * k

        @T.prim_func(s_tir=True)
        def box_direct(input_h: T.handle, output_h: T.handle, channels: T.int32, height: T.int32,
                       width: T.int32, in_plane: T.int32, in_row: T.int32, out_plane: T.int32,
                       out_row: T.int32):
            T.func_attr({"tirx.noalias": True})
            input = T.match_buffer(input_h, (channels, height, width), "uint8", strides=(in_plane, in_row, 1))
            output = T.match_buffer(output_h, (channels, height, width), "uint8", strides=(out_plane, out_row, 1))
            sums = T.sblock_alloc_buffer((channels, height, width), "int32")
            for c, y, x, j, i in T.grid(channels, height, width, k, k):
                with T.sblock("sum"):
                    vc, vy, vx, vj, vi = T.axis.remap("SSSRR", [c, y, x, j, i])
                    with T.init():
                        sums[vc, vy, vx] = 0
                    sums[vc, vy, vx] += T.Cast("int32", input[vc, clamp(vy + vj - r, height), clamp(vx + vi - r, width)])
            for c, y, x in T.grid(channels, height, width):
                with T.sblock("output"):
                    vc, vy, vx = T.axis.remap("SSS", [c, y, x])
                    output[vc, vy, vx] = T.Cast("uint8", (sums[vc, vy, vx] + n // 2) // n)

        super().__init__(box_direct)


def run_total(buffer, c, y, x, dy, dx, k):
    """buffer[c, y + t*dy, x + t*dx] summed over t < k in 32 bits, written
    out term by term: a stage with no reduction loop, which its schedule
    places whole (TVMScript calls this Python while it parses)."""
    out = None
    for t in range(k):
        term = buffer[c, y + t * dy, x + t * dx]
        term = term if buffer.dtype == "int32" else T.Cast("int32", term)
        out = term if out is None else out + term
    return out


class Separable(Algorithm):
    """Row sums, then column sums of them, over the image extended by its
    clamp border: stages `clamped` (the input, r samples of border around
    it, so that the sums read it at affine indices and a schedule can stage
    a tile of it), `rows`, `columns`, `output`."""
    clamped, rows, columns, output = "clamped", "rows", "columns", "output"
    contract = "separable"

    def __init__(self, radius):
        r, k = radius, 2 * radius + 1
        n = k * k

        @T.prim_func(s_tir=True)
        def box_separable(input_h: T.handle, output_h: T.handle, channels: T.int32, height: T.int32,
                          width: T.int32, in_plane: T.int32, in_row: T.int32, out_plane: T.int32,
                          out_row: T.int32):
            T.func_attr({"tirx.noalias": True})
            input = T.match_buffer(input_h, (channels, height, width), "uint8", strides=(in_plane, in_row, 1))
            output = T.match_buffer(output_h, (channels, height, width), "uint8", strides=(out_plane, out_row, 1))
            border = T.sblock_alloc_buffer((channels, bordered(height, r), bordered(width, r)), "uint8")
            row_sums = T.sblock_alloc_buffer((channels, bordered(height, r), width), "int32")
            column_sums = T.sblock_alloc_buffer((channels, height, width), "int32")
            for c, y, x in T.grid(channels, bordered(height, r), bordered(width, r)):
                with T.sblock("clamped"):
                    vc, vy, vx = T.axis.remap("SSS", [c, y, x])
                    border[vc, vy, vx] = input[vc, clamp(vy - r, height), clamp(vx - r, width)]
            for c, y, x in T.grid(channels, bordered(height, r), width):
                with T.sblock("rows"):
                    vc, vy, vx = T.axis.remap("SSS", [c, y, x])
                    row_sums[vc, vy, vx] = run_total(border, vc, vy, vx, 0, 1, k)
            for c, y, x in T.grid(channels, height, width):
                with T.sblock("columns"):
                    vc, vy, vx = T.axis.remap("SSS", [c, y, x])
                    column_sums[vc, vy, vx] = run_total(row_sums, vc, vy, vx, 1, 0, k)
            for c, y, x in T.grid(channels, height, width):
                with T.sblock("output"):
                    vc, vy, vx = T.axis.remap("SSS", [c, y, x])
                    output[vc, vy, vx] = T.Cast("uint8", (column_sums[vc, vy, vx] + n // 2) // n)

        super().__init__(box_separable)


# The running sums' stages cover whole multiples of these (rows, columns) past
# the image: a schedule's tile that divides them (a power of two up to them)
# then has no partial tile, and TVM no guard on the stages it moves into a
# tile. With a guard such as `x < width`, CompactBufferAllocation bounds the
# tile of the column sums in shared memory by the image, not the tile
# ((1, 16, 2^30 + 14) ints, whose size overflowed int32 to 224).
WHOLE_ROWS, WHOLE_COLUMNS = 256, 2048


def sample(input, c, y, x):
    """The input at (c, y, x) with the clamp border, as uint32 (TVMScript calls
    this Python while it parses)."""
    channels, height, width = input.shape
    return T.Cast("uint32", input[c, clamp(y, height), clamp(x, width)])


class RunningSums(Algorithm):
    """Each column's vertical window sum slid down a strip of `strip` rows,
    then each row's horizontal window sum of those slid along a run of `run`
    columns: about 4 additions a pixel for any radius. Stages `columns`
    (column sums: columns(c, y, xc) sums the 2r+1 rows around y of image
    column xc - r, clamped) and `output` (the runs of `run` outputs).

    A running sum is a recurrence, and TVMScript has no stage that reads its
    own earlier values (no scan): each stage is one block per strip (per run)
    whose body is the loop down the strip (along the run), an accumulator in
    a local buffer. So the strip height and the run length are the
    algorithm's, not the schedule's: a schedule can place whole strips and
    runs (threads, blocks, shared memory) but neither split a strip nor fuse
    two; it cannot turn the direct window into a running sum either. A
    strip restarts from the whole window (2r+1 rows), so a taller strip does
    less work per row; the schedule's tile must be whole strips and runs.

    `staged`: `output` writes the runs to `staging`, whole tiles past the
    image without a guard, and a stage `store` copies staging to the image,
    a pixel a block with its own loops and the guard. A schedule can then
    place a tile of staging in shared memory and store it a row of pixels
    at a time (coalesced at any shape): a run's outputs are one thread's,
    so `output` alone would store each thread's run, strided across a warp."""
    columns, output, store = "columns", "output", "store"
    contract = "running_sums"

    def __init__(self, radius, strip=16, run=4, staged=False):
        r, k, S, G = radius, 2 * radius + 1, strip, run
        n = k * k
        self.strip, self.run = strip, run  # what a schedule's tile must hold whole
        # Whole strips and runs in the stages' extents (the last strip would otherwise miss rows).
        assert WHOLE_ROWS % strip == 0 and WHOLE_COLUMNS % run == 0, "strip, run: powers of two up to 256, 2048"

        @T.prim_func(s_tir=True)
        def box_running_sums(input_h: T.handle, output_h: T.handle, channels: T.int32, height: T.int32,
                             width: T.int32, in_plane: T.int32, in_row: T.int32, out_plane: T.int32,
                             out_row: T.int32):
            T.func_attr({"tirx.noalias": True})
            input = T.match_buffer(input_h, (channels, height, width), "uint8", strides=(in_plane, in_row, 1))
            output = T.match_buffer(output_h, (channels, height, width), "uint8", strides=(out_plane, out_row, 1))
            # column_sums(c, y, x): image column x - r; the 2r past the last run are its window's.
            column_sums = T.sblock_alloc_buffer(
                (channels, whole(height, WHOLE_ROWS), whole(width, WHOLE_COLUMNS) + 2 * r), "uint32")
            if staged:  # a Python bool: TVMScript builds only the branch taken
                staging = T.sblock_alloc_buffer(
                    (channels, whole(height, WHOLE_ROWS), whole(width, WHOLE_COLUMNS)), "uint8")
            for c, s, x in T.grid(channels, whole(height, WHOLE_ROWS) // S, whole(width, WHOLE_COLUMNS) + 2 * r):
                with T.sblock("columns"):
                    vc, vs, vx = T.axis.remap("SSS", [c, s, x])
                    total = T.sblock_alloc_buffer((1,), "uint32", scope="local")
                    total[0] = 0
                    for j in range(k):  # the strip's first row: its whole window
                        total[0] += sample(input, vc, vs * S + j - r, vx - r)
                    column_sums[vc, vs * S, vx] = total[0]
                    for t in range(1, S):  # then the row entering, less the row leaving
                        total[0] += (sample(input, vc, vs * S + t + r, vx - r)
                                     - sample(input, vc, vs * S + t - r - 1, vx - r))
                        column_sums[vc, vs * S + t, vx] = total[0]
            for c, y, g in T.grid(channels, whole(height, WHOLE_ROWS), whole(width, WHOLE_COLUMNS) // G):
                with T.sblock("output"):
                    vc, vy, vg = T.axis.remap("SSS", [c, y, g])
                    total = T.sblock_alloc_buffer((1,), "uint32", scope="local")
                    total[0] = n // 2  # the rounding, half up
                    for i in range(k):  # the run's first output: its whole window
                        total[0] += column_sums[vc, vy, vg * G + i]
                    for u in range(G):
                        if u > 0:  # then the column entering, less the column leaving
                            total[0] += column_sums[vc, vy, vg * G + u + 2 * r] - column_sums[vc, vy, vg * G + u - 1]
                        if staged:
                            staging[vc, vy, vg * G + u] = T.Cast("uint8", total[0] // n)
                        elif vy < height and vg * G + u < width:
                            output[vc, vy, vg * G + u] = T.Cast("uint8", total[0] // n)
            if staged:
                for c, y, x in T.grid(channels, whole(height, WHOLE_ROWS), whole(width, WHOLE_COLUMNS)):
                    with T.sblock("store"):
                        vc, vy, vx = T.axis.remap("SSS", [c, y, x])
                        if vy < height and vx < width:
                            output[vc, vy, vx] = staging[vc, vy, vx]

        super().__init__(box_running_sums)
