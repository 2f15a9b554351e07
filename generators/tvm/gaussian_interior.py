"""The Gaussian rows first for one image shape, as an interior beside its
border (FILTERS.md: gaussian; the same exact sums as gaussian.RowsFirst).

TVM loads a clamped byte as a byte: a clamp makes each index a min and a
max, which no vector load can take. So the image is cut in two stages, each
its own kernel, that together write every output once:

    `interior`  outputs whose window never leaves the image (from row 2,
                whole tiles of rows, columns 16 .. width-17), in tiles of `rows`
                x 16 outputs, each reading its rows of the tile's 16 columns
                and a 16-byte group either side (`window`: whole aligned
                groups of the image read as 32-bit words, so that a schedule
                can load each group as one 16-byte vector; of the side groups
                only the word next to the tile is used) without clamps,
                then its `pixels` taken out of their words once, its `row`
                sums and its outputs, kept apart (`tiles`) until `store`
                writes them (a schedule stores a row of a tile as one
                vector): each a stage, so that a schedule can keep a tile's
                in registers, each value computed once;
    `frame`     the two rows at the top, the rows below the interior (2 or
                more) and the 16 columns at each side, with the contract's
                clamps, as one list of pixels.

The image is read as 32-bit words (pixel 4w + k in byte k of word w), its
rows and planes whole words apart: the launcher passes the same pointer.
The tiles' columns must cover the interior exactly, so the shape is fixed:
width - 32 a multiple of 16 (the constructor refuses others). RowsFirstWithInterior
is RowsFirst whose form at such a fixed shape is this one (its at_shape).
"""
from tvm.script import tirx as T

from .gaussian import SCALARS, RowsFirst, rounded, taps
from .plane import Algorithm

TILE_X = 16  # outputs a tile across: one 16-byte group
HALO_WORDS = 4  # words of the window each side of the tile: a whole group, aligned (its word by the tile is used)


def word_byte(word, x):
    """Pixel x's byte (x % 4) of its word, as int32."""
    return T.Cast("int32", T.bitwise_and(T.shift_right(word, T.Cast("uint32", 8 * T.bitwise_and(x, 3))), T.uint32(255)))


def pixel(words, c, y, x):
    """Pixel x of row y of an image read as words."""
    return word_byte(words[c, y, T.shift_right(x, 2)], x)


def blurred(sample, w0, w1, w2):
    """RowsFirst's output from sample(dy, dx) (int32): rows in 16 bits, then the vertical pass, rounded."""
    return rounded(taps(lambda k: T.Cast("int32", T.Cast("uint16", taps(lambda j: sample(k, j), w0, w1, w2))),
                        w0, w1, w2))


class RowsFirstInterior(Algorithm):
    """`window`, `pixels`, `row`, `interior`, `store` (the tiles inside the image), `frame` (the rest)."""
    contract = "rows_first"
    binding = "gaussian_weights"
    window, pixels, row, interior, store, frame = "window", "pixels", "row", "interior", "store", "frame"
    fixed_planes = True  # 16-byte accesses in every plane

    def __init__(self, height, width, rows=4):
        if height < 4 + rows or width < 32 + TILE_X or (width - 32) % TILE_X:
            raise ValueError(f"gaussian_interior: {height}x{width} has no whole tile of {rows}x{TILE_X} "
                             "inside a frame of 2 rows and 16 columns, or its columns are not whole tiles")
        self.rows = rows
        super().__init__(interior_function(height, width, rows), list(SCALARS))


def interior_function(height, width, rows):
    """The PrimFunc of RowsFirstInterior for this shape (its tiles are laid
    out for it; called with another, it asserts)."""
    tiles_y, tiles_x, words = (height - 4) // rows, (width - 32) // TILE_X, TILE_X // 4 + 2 * HALO_WORDS
    inner = tiles_y * rows  # the interior's rows, from row 2; the rows below it are the frame's
    edge_rows = height - inner  # 2 at the top, the rest at the bottom
    frame = edge_rows * width + 32 * inner
    shape = (height, width)

    @T.prim_func(s_tir=True)
    def gaussian_interior(input_h: T.handle, output_h: T.handle, channels: T.int32, height: T.int32,
                          width: T.int32, in_plane: T.int32, in_row: T.int32, out_plane: T.int32,
                          out_row: T.int32, w0: T.int32, w1: T.int32, w2: T.int32):
        T.func_attr({"tirx.noalias": True})
        input = T.match_buffer(input_h, (channels, height, width // 4), "uint32",
                               strides=(in_plane // 4, in_row // 4, 1))
        output = T.match_buffer(output_h, (channels, height, width), "uint8", strides=(out_plane, out_row, 1))
        window = T.sblock_alloc_buffer((channels, tiles_y, tiles_x, rows + 4, words), "uint32")
        # In registers, int32: a row sum is at most 255 * 256, the uint16 of RowsFirst's `row`
        # (narrower registers would only add conversions).
        pixels = T.sblock_alloc_buffer((channels, tiles_y, tiles_x, rows + 4, TILE_X + 4), "int32")
        row_sums = T.sblock_alloc_buffer((channels, tiles_y, tiles_x, rows + 4, TILE_X), "int32")
        tiles = T.sblock_alloc_buffer((channels, tiles_y, tiles_x, rows, TILE_X), "uint8")
        assert height == shape[0] and width == shape[1], "gaussian_interior: called with another shape"
        for c, ty, tx, r, w in T.grid(channels, tiles_y, tiles_x, rows + 4, words):
            with T.sblock("window"):
                vc, vty, vtx, vr, vw = T.axis.remap("SSSSS", [c, ty, tx, r, w])
                window[vc, vty, vtx, vr, vw] = input[vc, vty * rows + vr, 4 - HALO_WORDS + vtx * 4 + vw]
        # The tile's pixels and 2 either side, each taken out of its word once.
        for c, ty, tx, r, i in T.grid(channels, tiles_y, tiles_x, rows + 4, TILE_X + 4):
            with T.sblock("pixels"):
                vc, vty, vtx, vr, vi = T.axis.remap("SSSSS", [c, ty, tx, r, i])
                pixels[vc, vty, vtx, vr, vi] = word_byte(  # byte 4 HALO_WORDS - 2 + vi of the window
                    window[vc, vty, vtx, vr, T.shift_right(4 * HALO_WORDS - 2 + vi, 2)], 4 * HALO_WORDS - 2 + vi)
        for c, ty, tx, r, v in T.grid(channels, tiles_y, tiles_x, rows + 4, TILE_X):
            with T.sblock("row"):
                vc, vty, vtx, vr, vv = T.axis.remap("SSSSS", [c, ty, tx, r, v])
                row_sums[vc, vty, vtx, vr, vv] = taps(lambda j: pixels[vc, vty, vtx, vr, vv + 2 + j], w0, w1, w2)
        for c, ty, tx, r, v in T.grid(channels, tiles_y, tiles_x, rows, TILE_X):
            with T.sblock("interior"):
                vc, vty, vtx, vr, vv = T.axis.remap("SSSSS", [c, ty, tx, r, v])
                tiles[vc, vty, vtx, vr, vv] = rounded(taps(lambda k: row_sums[vc, vty, vtx, vr + 2 + k, vv], w0, w1, w2))
        for c, ty, tx, r, v in T.grid(channels, tiles_y, tiles_x, rows, TILE_X):
            with T.sblock("store"):
                vc, vty, vtx, vr, vv = T.axis.remap("SSSSS", [c, ty, tx, r, v])
                output[vc, 2 + vty * rows + vr, 16 + vtx * TILE_X + vv] = tiles[vc, vty, vtx, vr, vv]
        for c, n in T.grid(channels, frame):
            with T.sblock("frame"):
                vc, vn = T.axis.remap("SS", [c, n])
                T.reads(input[vc, 0:height, 0:width // 4])
                T.writes(output[vc, 0:height, 0:width])
                # The edge rows whole (2 at the top, those below the interior), then 32 pixels of each
                # interior row, 16 each side.
                m: T.int32 = vn - edge_rows * width
                y: T.int32 = T.Select(m < 0, vn // width + T.Select(vn // width < 2, 0, inner), 2 + m // 32)
                x: T.int32 = T.Select(m < 0, vn % width, m % 32 + T.Select(m % 32 < 16, 0, width - 32))
                output[vc, y, x] = blurred(
                    lambda k, j: pixel(input, vc, T.max(T.min(y + k, height - 1), 0),
                                       T.max(T.min(x + j, width - 1), 0)), w0, w1, w2)

    return gaussian_interior


class RowsFirstWithInterior(RowsFirst):
    """RowsFirst, whose form for a fixed shape with whole tiles is RowsFirstInterior."""

    @classmethod
    def at_shape(cls, height, width, **args):
        try:
            return RowsFirstInterior(height, width, **args)
        except ValueError:  # no whole tile: RowsFirst, specialised to the shape
            return None
