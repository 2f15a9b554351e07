"""The 5x5 fixed-point Gaussian's algorithms in TVMScript (FILTERS.md: gaussian).

    out(c, y, x) = ( sum_{i,j=-2..2} w_i w_j I(c, y+i, x+j) + 32768 ) >> 16

with the run-time weights w0 (centre), w1, w2 (scalars after out_row; the
runtime fills them from sigma, tvm_variant.cpp: gaussian_weights). The same
exact integer sum in three orders, as generators/gaussian.h:

    RowsFirst     `row`: the horizontal pass on bytes, stored in 16 bits (at
                  most 256 * 255 = 65280), then `output`: the vertical pass on
                  those sums in 32 bits, rounded;
    ColumnsFirst  `column`: the vertical pass first (16 bits), then `output`:
                  the horizontal pass on it (32 bits), rounded;
    Direct        `sum`: the 25 taps at once (a reduction), then `output`.

Each begins with `clamped`: the input extended by its 2-sample clamp border,
(channels, extended(height), extended(width)), so that the passes read it (and each
other) at affine indices and a schedule can stage a tile of any stage with a
constant extent (box.Separable does the same). Every pass pairs the samples
that share a weight: w0 c + w1 (a + b) + w2 (d + e).
"""
from tvm.script import tirx as T

from .plane import Algorithm, bordered, clamp

SCALARS = [("w0", "int32"), ("w1", "int32"), ("w2", "int32")]


def taps(sample, w0, w1, w2):
    """w0 s(0) + w1 (s(-1) + s(1)) + w2 (s(-2) + s(2)) in int32; sample(k) an int32 PrimExpr."""
    return w0 * sample(0) + w1 * (sample(-1) + sample(1)) + w2 * (sample(-2) + sample(2))


def extended(extent):
    """extent + 4: a side with its 2-sample border on each end (plane.bordered: TVM.md)."""
    return bordered(extent, 2)


def byte(buffer, c, y, x):
    return T.Cast("int32", buffer[c, y, x])


def rounded(total):
    """The contract's (total + 32768) >> 16 as a byte (total >= 0)."""
    return T.Cast("uint8", T.shift_right(total + 32768, 16))


# The stages the algorithms share (and gaussian_maxpool.py's), as TVMScript
# macros: each call writes its loops and named block into the calling function.

@T.macro
def clamped_stage(border, input, channels, height, width):
    """`clamped`: the input with its 2-sample clamp border."""
    for c, y, x in T.grid(channels, extended(height), extended(width)):
        with T.sblock("clamped"):
            vc, vy, vx = T.axis.remap("SSS", [c, y, x])
            border[vc, vy, vx] = input[vc, clamp(vy - 2, height), clamp(vx - 2, width)]


@T.macro
def row_pass(rows, border, channels, height, width, w0, w1, w2):
    """`row`: the horizontal pass on the bordered bytes, every bordered row, in 16 bits."""
    for c, y, x in T.grid(channels, extended(height), width):
        with T.sblock("row"):
            vc, vy, vx = T.axis.remap("SSS", [c, y, x])
            rows[vc, vy, vx] = T.Cast("uint16", taps(lambda k: byte(border, vc, vy, vx + 2 + k), w0, w1, w2))


@T.macro
def column_pass(columns, border, channels, height, width, w0, w1, w2):
    """`column`: the vertical pass on the bordered bytes, every bordered column, in 16 bits."""
    for c, y, x in T.grid(channels, height, extended(width)):
        with T.sblock("column"):
            vc, vy, vx = T.axis.remap("SSS", [c, y, x])
            columns[vc, vy, vx] = T.Cast("uint16", taps(lambda k: byte(border, vc, vy + 2 + k, vx), w0, w1, w2))


@T.macro
def vertical_rounded(name, out, rows, channels, height, width, w0, w1, w2):
    """Block `name`: the vertical pass on the row sums, rounded to bytes."""
    for c, y, x in T.grid(channels, height, width):
        with T.sblock(name):
            vc, vy, vx = T.axis.remap("SSS", [c, y, x])
            out[vc, vy, vx] = rounded(taps(lambda k: T.Cast("int32", rows[vc, vy + 2 + k, vx]), w0, w1, w2))


@T.macro
def horizontal_rounded(name, out, columns, channels, height, width, w0, w1, w2):
    """Block `name`: the horizontal pass on the column sums, rounded to bytes."""
    for c, y, x in T.grid(channels, height, width):
        with T.sblock(name):
            vc, vy, vx = T.axis.remap("SSS", [c, y, x])
            out[vc, vy, vx] = rounded(taps(lambda k: T.Cast("int32", columns[vc, vy, vx + 2 + k]), w0, w1, w2))


class RowsFirst(Algorithm):
    """`row` (horizontal pass, uint16), then `output` (vertical pass in int32, rounded)."""
    contract = "rows_first"
    binding = "gaussian_weights"
    clamped, row, output = "clamped", "row", "output"

    def __init__(self):
        @T.prim_func(s_tir=True)
        def gaussian_rows_first(input_h: T.handle, output_h: T.handle, channels: T.int32, height: T.int32,
                                width: T.int32, in_plane: T.int32, in_row: T.int32, out_plane: T.int32,
                                out_row: T.int32, w0: T.int32, w1: T.int32, w2: T.int32):
            T.func_attr({"tirx.noalias": True})
            input = T.match_buffer(input_h, (channels, height, width), "uint8", strides=(in_plane, in_row, 1))
            output = T.match_buffer(output_h, (channels, height, width), "uint8", strides=(out_plane, out_row, 1))
            border = T.sblock_alloc_buffer((channels, extended(height), extended(width)), "uint8")
            rows = T.sblock_alloc_buffer((channels, extended(height), width), "uint16")
            clamped_stage(border, input, channels, height, width)
            row_pass(rows, border, channels, height, width, w0, w1, w2)
            vertical_rounded("output", output, rows, channels, height, width, w0, w1, w2)

        super().__init__(gaussian_rows_first, list(SCALARS))


class ColumnsFirst(Algorithm):
    """`column` (vertical pass, uint16), then `output` (horizontal pass in int32, rounded)."""
    contract = "columns_first"
    binding = "gaussian_weights"
    clamped, column, output = "clamped", "column", "output"

    def __init__(self):
        @T.prim_func(s_tir=True)
        def gaussian_columns_first(input_h: T.handle, output_h: T.handle, channels: T.int32, height: T.int32,
                                   width: T.int32, in_plane: T.int32, in_row: T.int32, out_plane: T.int32,
                                   out_row: T.int32, w0: T.int32, w1: T.int32, w2: T.int32):
            T.func_attr({"tirx.noalias": True})
            input = T.match_buffer(input_h, (channels, height, width), "uint8", strides=(in_plane, in_row, 1))
            output = T.match_buffer(output_h, (channels, height, width), "uint8", strides=(out_plane, out_row, 1))
            border = T.sblock_alloc_buffer((channels, extended(height), extended(width)), "uint8")
            columns = T.sblock_alloc_buffer((channels, height, extended(width)), "uint16")
            clamped_stage(border, input, channels, height, width)
            column_pass(columns, border, channels, height, width, w0, w1, w2)
            horizontal_rounded("output", output, columns, channels, height, width, w0, w1, w2)

        super().__init__(gaussian_columns_first, list(SCALARS))


class Direct(Algorithm):
    """The 25 taps at once: `sum` (a reduction over the window), then `output`."""
    contract = "direct"
    binding = "gaussian_weights"
    clamped, sum, output = "clamped", "sum", "output"

    def __init__(self):
        def weight(k, w0, w1, w2):  # w_|k - 2| for k = 0..4
            return T.if_then_else(k == 2, w0, T.if_then_else((k == 1) | (k == 3), w1, w2))

        @T.prim_func(s_tir=True)
        def gaussian_direct(input_h: T.handle, output_h: T.handle, channels: T.int32, height: T.int32,
                            width: T.int32, in_plane: T.int32, in_row: T.int32, out_plane: T.int32,
                            out_row: T.int32, w0: T.int32, w1: T.int32, w2: T.int32):
            T.func_attr({"tirx.noalias": True})
            input = T.match_buffer(input_h, (channels, height, width), "uint8", strides=(in_plane, in_row, 1))
            output = T.match_buffer(output_h, (channels, height, width), "uint8", strides=(out_plane, out_row, 1))
            border = T.sblock_alloc_buffer((channels, extended(height), extended(width)), "uint8")
            sums = T.sblock_alloc_buffer((channels, height, width), "int32")
            clamped_stage(border, input, channels, height, width)
            for c, y, x, i, j in T.grid(channels, height, width, 5, 5):
                with T.sblock("sum"):
                    vc, vy, vx, vi, vj = T.axis.remap("SSSRR", [c, y, x, i, j])
                    with T.init():
                        sums[vc, vy, vx] = 0
                    sums[vc, vy, vx] += weight(vi, w0, w1, w2) * weight(vj, w0, w1, w2) * T.Cast(
                        "int32", border[vc, vy + vi, vx + vj])
            for c, y, x in T.grid(channels, height, width):
                with T.sblock("output"):
                    vc, vy, vx = T.axis.remap("SSS", [c, y, x])
                    output[vc, vy, vx] = rounded(sums[vc, vy, vx])

        super().__init__(gaussian_direct, list(SCALARS))
