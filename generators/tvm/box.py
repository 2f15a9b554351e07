"""The box (mean) filter's algorithms in TVMScript (FILTERS.md: box).

    out(c, y, x) = ( sum_{|i|<=r, |j|<=r} I(c, y+j, x+i) + n/2 ) / n,  n = (2r+1)^2

Direct sums the (2r+1)^2 window; Separable sums each row's 2r+1 samples
first, then 2r+1 of those row sums down a column (2(2r+1) additions a pixel
instead of (2r+1)^2). Both are exact in 32-bit integers.
"""
from tvm.script import tirx as T

from plane import Algorithm, bordered, clamp


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
