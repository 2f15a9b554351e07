"""2x2 max pooling, stride 2, in TVMScript (FILTERS.md: maxpool).

    out(c, y, x) = max(I(c, 2y, 2x), I(c, 2y, 2x+1), I(c, 2y+1, 2x), I(c, 2y+1, 2x+1))

The output is (channels, height // 2, width // 2) with strides (out_plane,
out_row, 1); an odd last column or row is never read, so there is no border.
W or H below 2 is the caller's error (the harness refuses it: min_side 2).
"""
from tvm.script import tirx as T

from .plane import Algorithm


def pooled(buffer, c, y, x):
    """The maximum of buffer's 2x2 block under output (c, y, x)."""
    return T.max(T.max(buffer[c, 2 * y, 2 * x], buffer[c, 2 * y, 2 * x + 1]),
                 T.max(buffer[c, 2 * y + 1, 2 * x], buffer[c, 2 * y + 1, 2 * x + 1]))


class Direct(Algorithm):
    """One stage, `output`: each output the maximum of its four samples."""
    output_scale = 2
    contract = "direct"
    binding = "none"
    output = "output"

    def __init__(self):
        @T.prim_func(s_tir=True)
        def maxpool_direct(input_h: T.handle, output_h: T.handle, channels: T.int32, height: T.int32,
                           width: T.int32, in_plane: T.int32, in_row: T.int32, out_plane: T.int32,
                           out_row: T.int32):
            T.func_attr({"tirx.noalias": True})
            input = T.match_buffer(input_h, (channels, height, width), "uint8", strides=(in_plane, in_row, 1))
            output = T.match_buffer(output_h, (channels, height // 2, width // 2), "uint8",
                                    strides=(out_plane, out_row, 1))
            for c, y, x in T.grid(channels, height // 2, width // 2):
                with T.sblock("output"):
                    vc, vy, vx = T.axis.remap("SSS", [c, y, x])
                    output[vc, vy, vx] = pooled(input, vc, vy, vx)

        super().__init__(maxpool_direct)
