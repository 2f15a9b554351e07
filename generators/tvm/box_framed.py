"""The box filter's separable sums at any image shape, as an interior without
clamps beside its clamped frame (FILTERS.md: box; box.Separable's exact sums).

With symbolic sizes TVM writes each clamp of box.Separable in two forms, so
that nvcc cannot tell that two of a thread's loads (or row sums) are one, and
guards each store; loop_partition refuses image-sized loops, so no schedule
cuts an interior out of Separable's one loop nest. Here the cut is the
algorithm's, at any shape (framed.py's, its border the radius r): two stages,
each its own kernel, that together write every output once:

    `tile`      the outputs whose (2r+1)^2 window never leaves the image,
                from row r and column r, in tiles of `rows` x `lanes` (a
                thread's): the largest number of whole tiles down and across
                inside height - 2r rows and width - 2r columns. A tile is a
                block that holds the tiles' predicate once, with two inner
                blocks: `rows`, the row sums its outputs read (rows + 2r
                input rows by `lanes` columns, each the 2r+1 bytes of one
                window row, loaded at affine indices without a clamp) in a
                local array, and `interior`, its outputs, each 2r+1 of those
                row sums down a column;
    `frame`     the rest, with the contract's clamps, as one list of pixels:
                the rows above and below the tiles whole (r at the top, at
                least r below), then the columns left and right of them in
                each of their rows (r at the left, at least r at the right);
                the whole image where no tile fits.

A tile's row sums are a stage of the algorithm, not the inlined stages of
register_rows: TVM's simplifier flattens inlined sums into one chain an
output, in which nvcc finds few of the row sums neighbouring outputs share.
They are kept as uint16 (a row of 2r+1 bytes fits for any radius the
contract allows) and summed as int32, which TVM then knows is not negative:
its division by n is C's, without floordiv's correction. The tiles' loops
span at least one tile: where none fits that one writes nothing (its
predicate is false), since CUDA refuses a grid of 0 blocks and the launcher
launches every kernel.

`staged`: the tiles write their outputs to `staging` (whole blocks of
STAGED_BLOCK tiles, row y and column x of the tiles' outputs at [y, x]), and
a stage `store` copies those inside the tiles to the image with its own
loops and a guard, as box.RunningSums' `staged`: a schedule can keep a
block's tiles of staging in shared memory and store them a row at a time,
consecutive threads on consecutive bytes. The tiles then start at column
WORD (at least r; the frame takes the columns before them): a word of the
tiles' outputs is then a word of the image's row wherever the rows' pitch
is whole words, so that the store stage can store 32-bit words.
"""
from tvm.script import tirx as T

from .framed import frame_column, frame_row, frame_size, tiles, whole
from .plane import Algorithm, clamp

# A staged algorithm's tiles cover whole blocks of (tile rows, tile columns):
# a schedule's block that divides it has no partial block, and its tile of
# staging in shared memory a constant size (CUDA codegen refuses min(tile, image)).
STAGED_BLOCK = (4, 32)
# The bytes of a 32-bit word: a staged algorithm's tiles start at a multiple of it.
WORD = 4


def byte(buffer, c, y, x):
    return T.Cast("int32", buffer[c, y, x])


def run_sum(term, r):
    """term(-r) + ... + term(r), left to right (box.run_total's order), int32 terms."""
    total = term(-r)
    for t in range(-r + 1, r + 1):
        total = total + term(t)
    return total


def mean(total, r):
    """The contract's rounded mean of a window's int32 total (>= 0)."""
    n = (2 * r + 1) * (2 * r + 1)
    return T.Cast("uint8", (total + n // 2) // n)


class SeparableFramed(Algorithm):
    """`tile`, a thread's tile of the outputs whose window stays inside the image, its row sums `rows`
    and its outputs `interior` (no clamps), then `frame` (the rest, clamped). rows x lanes: the tile."""
    contract = "separable"
    tile, rows, interior, frame = "tile", "rows", "interior", "frame"

    store = "store"

    def __init__(self, radius, rows=8, lanes=4, staged=False):
        if (2 * radius + 1) * 255 >= 1 << 16:
            raise ValueError(f"box_framed: a row sum of radius {radius} does not fit the uint16 row sums")
        if staged and lanes % WORD:
            raise ValueError(f"box_framed: staged tiles of {lanes} lanes are not whole words")
        self.radius, self.tile_rows, self.lanes = radius, rows, lanes
        super().__init__(framed_function(radius, rows, lanes, staged))


def grid(extent, unit, border, block):
    """The tiles of `unit` across `extent` inside `border` (framed.tiles), at least one (a grid of 0 blocks
    is refused), rounded up to whole blocks of `block`."""
    count = T.max(tiles(extent, unit, border), 1)
    return count if block == 1 else (count + block - 1) // block * block


def framed_function(r, rows, lanes, staged=False):
    left = (r + WORD - 1) // WORD * WORD if staged else r  # the tiles' first column
    down, across = STAGED_BLOCK if staged else (1, 1)  # a block's tiles
    @T.prim_func(s_tir=True)
    def box_framed(input_h: T.handle, output_h: T.handle, channels: T.int32, height: T.int32, width: T.int32,
                   in_plane: T.int32, in_row: T.int32, out_plane: T.int32, out_row: T.int32):
        T.func_attr({"tirx.noalias": True})
        input = T.match_buffer(input_h, (channels, height, width), "uint8", strides=(in_plane, in_row, 1))
        output = T.match_buffer(output_h, (channels, height, width), "uint8", strides=(out_plane, out_row, 1))
        if staged:  # a Python bool: TVMScript builds only the branch taken
            staging = T.sblock_alloc_buffer(
                (channels, grid(height, rows, r, down) * rows, grid(width, lanes, left, across) * lanes), "uint8")
        for c, ty, tx in T.grid(channels, grid(height, rows, r, down), grid(width, lanes, left, across)):
            with T.sblock("tile"):
                vc, vty, vtx = T.axis.remap("SSS", [c, ty, tx])
                row_sums = T.sblock_alloc_buffer((rows + 2 * r, lanes), "uint16", scope="local")
                if staged:  # an `if`, not T.where: `store` then reads a region its producer covers
                    if vty < tiles(height, rows, r) and vtx < tiles(width, lanes, left):
                        for i, v in T.grid(rows + 2 * r, lanes):
                            with T.sblock("rows"):
                                vi, vv = T.axis.remap("SS", [i, v])
                                row_sums[vi, vv] = T.Cast("uint16", run_sum(
                                    lambda dx: byte(input, vc, vty * rows + vi, left + vtx * lanes + vv + dx), r))
                        for i, v in T.grid(rows, lanes):
                            with T.sblock("interior"):
                                vi, vv = T.axis.remap("SS", [i, v])
                                staging[vc, vty * rows + vi, vtx * lanes + vv] = mean(
                                    run_sum(lambda dy: T.Cast("int32", row_sums[r + vi + dy, vv]), r), r)
                else:
                    T.where(ty < tiles(height, rows, r) and tx < tiles(width, lanes, left))
                    for i, v in T.grid(rows + 2 * r, lanes):
                        with T.sblock("rows"):
                            vi, vv = T.axis.remap("SS", [i, v])
                            row_sums[vi, vv] = T.Cast("uint16", run_sum(
                                lambda dx: byte(input, vc, vty * rows + vi, left + vtx * lanes + vv + dx), r))
                    for i, v in T.grid(rows, lanes):
                        with T.sblock("interior"):
                            vi, vv = T.axis.remap("SS", [i, v])
                            output[vc, r + vty * rows + vi, r + vtx * lanes + vv] = mean(
                                run_sum(lambda dy: T.Cast("int32", row_sums[r + vi + dy, vv]), r), r)
        if staged:
            for c, y, x in T.grid(*staging.shape):
                with T.sblock("store"):
                    vc, vy, vx = T.axis.remap("SSS", [c, y, x])
                    if vy < whole(height, rows, r) and vx < whole(width, lanes, left):
                        output[vc, r + vy, left + vx] = staging[vc, vy, vx]
        for c, n in T.grid(channels, frame_size(height, width, rows, lanes, r, left)):
            with T.sblock("frame"):
                vc, vn = T.axis.remap("SS", [c, n])
                T.reads(input[vc, 0:height, 0:width])
                T.writes(output[vc, 0:height, 0:width])
                inner: T.int32 = whole(height, rows, r)  # the tiles' rows
                side: T.int32 = width - whole(width, lanes, left)  # the frame's columns in each of them
                m: T.int32 = vn - (height - inner) * width  # < 0: a pixel of the frame's whole rows
                y: T.int32 = frame_row(vn, m, width, inner, side, r)
                x: T.int32 = frame_column(vn, m, width, side, left)
                output[vc, y, x] = mean(run_sum(lambda dy: run_sum(
                    lambda dx: byte(input, vc, clamp(y + dy, height), clamp(x + dx, width)), r), r), r)

    return box_framed
