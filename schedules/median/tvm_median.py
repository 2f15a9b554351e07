"""TVM schedules of the median filter (generators/tvm/median.py's algorithms).

Every schedule keeps all of a thread's work in registers: Direct's sorted
columns, Separable's strip medians are computed at the thread's loop
(compute_at) into "local" buffers whose indices are constants once the loops
over them are unrolled, so nvcc holds them in registers; nothing is left at
root (the launcher may not allocate: cuda_source.py). Loads and stores stay
bytes: every output is guarded (the algorithms' outputs run to the exact
width) and every load clamped.
"""
from tvm_registry import tvm_schedule

import median

SIZES = {"size": [3, 5, 7]}
# The separable networks at 7x7 are expression trees TVM 0.27 takes over ten
# minutes to lower (sep_strip: 8 min 46 s of CPU and not done, against 6 s at
# 5x5): built for 3x3 and 5x5; the 7x7 row has the direct schedules.
SEPARABLE_SIZES = {"size": [3, 5]}


def _unroll_below(sch, block, at):
    """Unrolls the loops of `block` inside loop `at` (those compute_at made)."""
    loops = sch.get_loops(block)
    at_index = [sch.get(l).same_as(sch.get(at)) for l in loops].index(True)
    for loop in loops[at_index + 1:]:
        sch.unroll(loop)


def _local(sch, block):
    """Every buffer `block` writes in registers ("local")."""
    for i in range(len(sch.get(block).writes)):
        sch.set_scope(block, i, "local")


def _bind(sch, c, yb, xb, yt, xt):
    sch.bind(c, "blockIdx.z")
    sch.bind(yb, "blockIdx.y")
    sch.bind(xb, "blockIdx.x")
    sch.bind(yt, "threadIdx.y")
    sch.bind(xt, "threadIdx.x")


def separable_at(tile_x, tile_y, bits, strip=1):
    """The Separable algorithm at this tile, sample width and strip, as a
    class a registration takes (it constructs it with `size` alone)."""
    def init(self, size):
        median.Separable.__init__(self, size, tile=(tile_x, tile_y), bits=bits, strip=strip)
    return type(f"Separable{tile_x}x{tile_y}_u{bits}_s{strip}", (median.Separable,), {"__init__": init})


class BestTile(median.Separable):
    """Separable at the tile of Halide's best GPU schedule for each size:
    3x3 in 4x4 tiles of 16-bit samples (sep_tile_4x4; 3x3 as used, each side
    at most k), 5x5 in 2x1 tiles (sep_lanes_2x1's and sep_strip's), 7x7 in
    4x1 tiles of 32-bit samples (sep_tile_4x1_u32)."""
    TILES = {3: ((4, 4), 16), 5: ((2, 1), 16), 7: ((4, 1), 32)}

    def __init__(self, size):
        tile, bits = self.TILES[size]
        super().__init__(size, tile=tile, bits=bits)


# ---------------------------------------------------------------------------
# Direct


def _direct_threads(sch, alg, per_thread, warps):
    """The output in blocks of 32 x warps threads, `per_thread` adjacent
    outputs a thread (unrolled); the thread's sorted columns (its outputs'
    and the k - 1 halo columns) computed once into registers."""
    output = sch.get_sblock(alg.output)
    c, y, x = sch.get_loops(output)
    xb, xt, xv = sch.split(x, [None, 32, per_thread])
    yb, yt = sch.split(y, [None, warps])
    sch.reorder(c, yb, xb, yt, xt, xv)
    _bind(sch, c, yb, xb, yt, xt)
    sch.unroll(xv)
    columns = sch.get_sblock(alg.columns)
    sch.compute_at(columns, xt)
    _local(sch, columns)
    _unroll_below(sch, columns, xt)


@tvm_schedule("median", median.Direct, compiled=SIZES,
              frontier="the classic: one thread an output, its window's columns sorted in registers",
              why="each thread sorts its own k columns and merges them (Halide's tile; L1 serves the neighbours' reads)")
def direct(sch, alg):
    _direct_threads(sch, alg, per_thread=1, warps=8)


@tvm_schedule("median", median.Direct, compiled=SIZES,
              why="4 adjacent outputs a thread: 4 + k - 1 sorted columns instead of 4k (Halide's register_columns)")
def direct_x4(sch, alg):
    _direct_threads(sch, alg, per_thread=4, warps=8)


# ---------------------------------------------------------------------------
# Separable


def _tile_threads(sch, alg, warps):
    """The output in the algorithm's strips of tiles, a strip a thread,
    blocks of 32 x warps threads (stacked in y); the strip's medians, and
    inside their body its sorted columns, computed at the thread into
    registers; the strip's outputs unrolled."""
    output = sch.get_sblock(alg.output)
    c, ty, ts, s, t, i = sch.get_loops(output)  # the algorithm's output runs over strips
    xb, xt = sch.split(ts, [None, 32])
    yb, yt = sch.split(ty, [None, warps])
    sch.reorder(c, yb, xb, yt, xt, s, t, i)
    _bind(sch, c, yb, xb, yt, xt)
    for loop in (s, t, i):
        sch.unroll(loop)
    medians = sch.get_sblock(alg.medians)
    sch.compute_at(medians, xt)
    _local(sch, medians)


@tvm_schedule("median", BestTile, compiled=SEPARABLE_SIZES,
              frontier="mirrors Halide's best GPU medians: sep_tile_4x4 (3x3), 2x1 tiles (5x5), sep_tile_4x1_u32 (7x7)",
              why="a tile a thread (3x3 / 2x1 / 4x1 by size), the rows and columns its windows share sorted once, all in registers")
def sep_tile(sch, alg):
    _tile_threads(sch, alg, warps=2)


@tvm_schedule("median", separable_at(2, 1, 16, strip=4), compiled=SEPARABLE_SIZES,
              frontier="Halide's fastest 5x5 (sep_strip): 4 tiles of 2x1 a thread sharing their columns",
              why="Halide's sep_strip: 4 tiles of 2x1 a thread, the strip's 8 + k - 1 sorted columns shared by its tiles")
def sep_strip(sch, alg):
    _tile_threads(sch, alg, warps=2)
