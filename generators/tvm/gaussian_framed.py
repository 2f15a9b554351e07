"""The Gaussian rows first at any image shape, as an interior without clamps
beside its clamped frame (FILTERS.md: gaussian; RowsFirst's exact sums).

With symbolic sizes TVM writes each clamp of RowsFirst in two forms, so that
nvcc cannot tell that two of a thread's loads are one, and guards each store
(the ledger's TVM column); loop_partition refuses image-sized loops, so no
schedule cuts an interior out of RowsFirst's one loop nest. Here the cut is
the algorithm's, at any shape: two stages, each its own kernel, that together
write every output once:

    `tile`      the outputs whose 5x5 window never leaves the image, from row
                2 and column 2, in tiles of `rows` x `lanes` (a thread's):
                the largest number of whole tiles down and across inside
                height - 4 rows and width - 4 columns. A tile is a block that
                holds the tiles' predicate once, its outputs the inner block
                `interior`, whose loads are bytes at affine indices, without
                a clamp;
    `frame`     the rest, with the contract's clamps, as one list of pixels:
                the rows above and below the tiles whole (2 at the top, at
                least 2 below), then the columns left and right of them in
                each of their rows (2 at the left, at least 2 at the right);
                the whole image where no tile fits.

The tiles' loops span at least one tile: where none fits (height < 4 + rows
or width < 4 + lanes) that one writes nothing (its predicate is false), since
CUDA refuses a grid of 0 blocks and the launcher launches every kernel.
"""
from tvm.script import tirx as T

from .framed import frame_column, frame_row, frame_size, tiles, whole
from .gaussian import SCALARS, byte
from .gaussian_interior import blurred
from .plane import Algorithm, clamp

BORDER = 2  # the 5x5 window's reach past an output: the frame's side at the top and left


class RowsFirstFramed(Algorithm):
    """`tile`, a thread's tile of the outputs whose window stays inside the image, and its outputs,
    `interior` (no clamps), then `frame` (the rest, clamped). rows x lanes: the tile."""
    contract = "rows_first"
    binding = "gaussian_weights"
    tile, interior, frame = "tile", "interior", "frame"

    def __init__(self, rows=8, lanes=4):
        self.rows, self.lanes = rows, lanes
        super().__init__(framed_function(rows, lanes), list(SCALARS))


def framed_function(rows, lanes):
    @T.prim_func(s_tir=True)
    def gaussian_framed(input_h: T.handle, output_h: T.handle, channels: T.int32, height: T.int32,
                        width: T.int32, in_plane: T.int32, in_row: T.int32, out_plane: T.int32,
                        out_row: T.int32, w0: T.int32, w1: T.int32, w2: T.int32):
        T.func_attr({"tirx.noalias": True})
        input = T.match_buffer(input_h, (channels, height, width), "uint8", strides=(in_plane, in_row, 1))
        output = T.match_buffer(output_h, (channels, height, width), "uint8", strides=(out_plane, out_row, 1))
        for c, ty, tx in T.grid(channels, T.max(tiles(height, rows, BORDER), 1),
                                T.max(tiles(width, lanes, BORDER), 1)):
            with T.sblock("tile"):
                vc, vty, vtx = T.axis.remap("SSS", [c, ty, tx])
                T.where(ty < tiles(height, rows, BORDER) and tx < tiles(width, lanes, BORDER))
                for r, v in T.grid(rows, lanes):
                    with T.sblock("interior"):
                        vr, vv = T.axis.remap("SS", [r, v])
                        output[vc, 2 + vty * rows + vr, 2 + vtx * lanes + vv] = blurred(
                            lambda k, j: byte(input, vc, 2 + vty * rows + vr + k, 2 + vtx * lanes + vv + j), w0, w1, w2)
        for c, n in T.grid(channels, frame_size(height, width, rows, lanes, BORDER)):
            with T.sblock("frame"):
                vc, vn = T.axis.remap("SS", [c, n])
                T.reads(input[vc, 0:height, 0:width])
                T.writes(output[vc, 0:height, 0:width])
                inner: T.int32 = whole(height, rows, BORDER)  # the tiles' rows
                side: T.int32 = width - whole(width, lanes, BORDER)  # the frame's columns in each of them
                m: T.int32 = vn - (height - inner) * width  # < 0: a pixel of the frame's whole rows
                y: T.int32 = frame_row(vn, m, width, inner, side, BORDER)
                x: T.int32 = frame_column(vn, m, width, side, BORDER)
                output[vc, y, x] = blurred(lambda k, j: byte(input, vc, clamp(y + k, height), clamp(x + j, width)),
                                           w0, w1, w2)

    return gaussian_framed
