"""The Gaussian followed by 2x2 max pooling at any image shape, as an interior
without clamps beside its clamped frame (FILTERS.md: maxpool of gaussian;
gaussian_maxpool.RowsFirst's exact sums, pooled).

gaussian_framed's cut, made on the pooled image (height // 2 x width // 2):
pooled output (y, x) is the maximum of the blurred pixels of rows 2y, 2y + 1
and columns 2x, 2x + 1, whose 5x5 windows span input rows 2y - 2 .. 2y + 3,
all inside the image for 1 <= y <= height // 2 - 2 (2y + 3 <= height - 1,
an odd last row included), and likewise across. So the frame of clamped
outputs is one pooled output wide at the top and left, and the stages, each
its own kernel, together write every pooled output once:

    `tile`      the pooled outputs whose blur windows never leave the image,
                from pooled row 1 and column 1, in tiles of `rows` x `lanes`
                (a thread's): the largest number of whole tiles down and
                across inside height // 2 - 2 pooled rows and width // 2 - 2
                pooled columns; its outputs, the inner block `interior`,
                pool blurred pixels whose loads are bytes at affine indices,
                without a clamp;
    `frame`     the rest, with the contract's clamps, as one list of pooled
                outputs (framed.frame_row and frame_column, border 1): the
                pooled rows above and below the tiles whole, then the pooled
                columns left and right of them in each of their rows.

As in gaussian_framed, the tiles' loops span at least one tile, whose
predicate is false where none fits. An image under 2 x 2 pools to nothing
(the contract refuses it): the frame then has no output and no thread.
"""
from tvm.script import tirx as T

from .framed import frame_column, frame_row, frame_size, tiles, whole
from .gaussian import SCALARS, byte
from .gaussian_interior import blurred
from .plane import Algorithm, clamp

BORDER = 1  # pooled outputs of the frame at the top and left; at the bottom and right at least 1


def pooled_blur(sample, y, x, w0, w1, w2):
    """Pooled output (y, x) from sample(row, column) (int32 input bytes): the
    maximum of its four blurred pixels, in maxpool.pooled's order."""
    def pixel(dy, dx):
        return blurred(lambda k, j: sample(2 * y + dy + k, 2 * x + dx + j), w0, w1, w2)

    return T.max(T.max(pixel(0, 0), pixel(0, 1)), T.max(pixel(1, 0), pixel(1, 1)))


class RowsFirstFramed(Algorithm):
    """`tile`, a thread's tile of the pooled outputs whose blur windows stay inside the image, and its
    outputs, `interior` (no clamps), then `frame` (the rest, clamped). rows x lanes: the tile, pooled."""
    output_scale = 2
    contract = "rows_first"
    binding = "gaussian_weights"
    tile, interior, frame = "tile", "interior", "frame"

    def __init__(self, rows=4, lanes=2):
        self.rows, self.lanes = rows, lanes
        super().__init__(framed_function(rows, lanes), list(SCALARS))


def framed_function(rows, lanes):
    @T.prim_func(s_tir=True)
    def gaussian_maxpool_framed(input_h: T.handle, output_h: T.handle, channels: T.int32, height: T.int32,
                                width: T.int32, in_plane: T.int32, in_row: T.int32, out_plane: T.int32,
                                out_row: T.int32, w0: T.int32, w1: T.int32, w2: T.int32):
        T.func_attr({"tirx.noalias": True})
        input = T.match_buffer(input_h, (channels, height, width), "uint8", strides=(in_plane, in_row, 1))
        output = T.match_buffer(output_h, (channels, height // 2, width // 2), "uint8",
                                strides=(out_plane, out_row, 1))
        for c, ty, tx in T.grid(channels, T.max(tiles(height // 2, rows, BORDER), 1),
                                T.max(tiles(width // 2, lanes, BORDER), 1)):
            with T.sblock("tile"):
                vc, vty, vtx = T.axis.remap("SSS", [c, ty, tx])
                T.where(ty < tiles(height // 2, rows, BORDER) and tx < tiles(width // 2, lanes, BORDER))
                for r, v in T.grid(rows, lanes):
                    with T.sblock("interior"):
                        vr, vv = T.axis.remap("SS", [r, v])
                        output[vc, 1 + vty * rows + vr, 1 + vtx * lanes + vv] = pooled_blur(
                            lambda y, x: byte(input, vc, y, x), 1 + vty * rows + vr, 1 + vtx * lanes + vv, w0, w1, w2)
        for c, n in T.grid(channels, frame_size(height // 2, width // 2, rows, lanes, BORDER)):
            with T.sblock("frame"):
                vc, vn = T.axis.remap("SS", [c, n])
                T.reads(input[vc, 0:height, 0:width])
                T.writes(output[vc, 0:height // 2, 0:width // 2])
                inner: T.int32 = whole(height // 2, rows, BORDER)  # the tiles' pooled rows
                side: T.int32 = width // 2 - whole(width // 2, lanes, BORDER)  # the frame's in each of them
                m: T.int32 = vn - (height // 2 - inner) * (width // 2)  # < 0: an output of the whole rows
                y: T.int32 = frame_row(vn, m, width // 2, inner, side, BORDER)
                x: T.int32 = frame_column(vn, m, width // 2, side, BORDER)
                output[vc, y, x] = pooled_blur(lambda yy, xx: byte(input, vc, clamp(yy, height), clamp(xx, width)),
                                               y, x, w0, w1, w2)

    return gaussian_maxpool_framed
