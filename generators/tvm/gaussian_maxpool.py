"""The Gaussian followed by 2x2 max pooling in TVMScript: maxpool(gaussian(I, sigma))
(runtime/core/filters.cpp: gaussian_maxpool; reference.cpp pools the blurred image).

One algorithm per blur algorithm of gaussian.py, under the same contract names:
the blur's stages (`clamped`, the input with its 2-sample clamp border, then
the two passes at affine indices), then `blurred` (the Gaussian's rounded bytes, the whole
image's extent), then `output` (the pooling, (channels, height // 2, width // 2)).
A schedule decides where `blurred` and the passes are computed: per thread
inside the pooling (fused), never at root (a library's host code may not
allocate, filterlab_build/cuda_source.py). The scalars are the Gaussian's: w0, w1, w2.
"""
from tvm.script import tirx as T

from .gaussian import SCALARS, clamped_stage, column_pass, extended, horizontal_rounded, row_pass, vertical_rounded
from .maxpool import pooled
from .plane import Algorithm


class RowsFirst(Algorithm):
    """`row` (horizontal pass, uint16), `blurred` (vertical pass, rounded), `output` (pooled)."""
    output_scale = 2
    contract = "rows_first"
    binding = "gaussian_weights"
    clamped, row, blurred, output = "clamped", "row", "blurred", "output"

    def __init__(self):
        @T.prim_func(s_tir=True)
        def gaussian_maxpool_rows_first(input_h: T.handle, output_h: T.handle, channels: T.int32,
                                        height: T.int32, width: T.int32, in_plane: T.int32, in_row: T.int32,
                                        out_plane: T.int32, out_row: T.int32, w0: T.int32, w1: T.int32,
                                        w2: T.int32):
            T.func_attr({"tirx.noalias": True})
            input = T.match_buffer(input_h, (channels, height, width), "uint8", strides=(in_plane, in_row, 1))
            output = T.match_buffer(output_h, (channels, height // 2, width // 2), "uint8",
                                    strides=(out_plane, out_row, 1))
            border = T.sblock_alloc_buffer((channels, extended(height), extended(width)), "uint8")
            rows = T.sblock_alloc_buffer((channels, extended(height), width), "uint16")
            blur = T.sblock_alloc_buffer((channels, height, width), "uint8")
            clamped_stage(border, input, channels, height, width)
            row_pass(rows, border, channels, height, width, w0, w1, w2)
            vertical_rounded("blurred", blur, rows, channels, height, width, w0, w1, w2)
            for c, y, x in T.grid(channels, height // 2, width // 2):
                with T.sblock("output"):
                    vc, vy, vx = T.axis.remap("SSS", [c, y, x])
                    output[vc, vy, vx] = pooled(blur, vc, vy, vx)

        super().__init__(gaussian_maxpool_rows_first, list(SCALARS))


class ColumnsFirst(Algorithm):
    """`column` (vertical pass, uint16), `blurred` (horizontal pass, rounded), `output` (pooled)."""
    output_scale = 2
    contract = "columns_first"
    binding = "gaussian_weights"
    clamped, column, blurred, output = "clamped", "column", "blurred", "output"

    def __init__(self):
        @T.prim_func(s_tir=True)
        def gaussian_maxpool_columns_first(input_h: T.handle, output_h: T.handle, channels: T.int32,
                                           height: T.int32, width: T.int32, in_plane: T.int32, in_row: T.int32,
                                           out_plane: T.int32, out_row: T.int32, w0: T.int32, w1: T.int32,
                                           w2: T.int32):
            T.func_attr({"tirx.noalias": True})
            input = T.match_buffer(input_h, (channels, height, width), "uint8", strides=(in_plane, in_row, 1))
            output = T.match_buffer(output_h, (channels, height // 2, width // 2), "uint8",
                                    strides=(out_plane, out_row, 1))
            border = T.sblock_alloc_buffer((channels, extended(height), extended(width)), "uint8")
            columns = T.sblock_alloc_buffer((channels, height, extended(width)), "uint16")
            blur = T.sblock_alloc_buffer((channels, height, width), "uint8")
            clamped_stage(border, input, channels, height, width)
            column_pass(columns, border, channels, height, width, w0, w1, w2)
            horizontal_rounded("blurred", blur, columns, channels, height, width, w0, w1, w2)
            for c, y, x in T.grid(channels, height // 2, width // 2):
                with T.sblock("output"):
                    vc, vy, vx = T.axis.remap("SSS", [c, y, x])
                    output[vc, vy, vx] = pooled(blur, vc, vy, vx)

        super().__init__(gaussian_maxpool_columns_first, list(SCALARS))
