"""TVM schedules of the box filter (generators/tvm/box.py's algorithms)."""
from tvm import tirx

from filterlab_build.tvm_registry import tvm_frozen, tvm_schedule
from generators.tvm import box, box_framed
from generators.tvm.plane import contract_range
from schedules.tvm_helpers import (bind_grid, framed_tiles, pixel_list_threads, register_block, row_stores, thread_tile,
                                   unrolled)

# The contract's radii (runtime/base/contract_ranges.h), every one a library.
BOX_MAX_RADIUS = contract_range("kBoxMaxRadius")
RADII = {"radius": range(contract_range("kBoxMinRadius"), BOX_MAX_RADIUS + 1)}


@tvm_schedule("box", box.Direct, compiled=RADII, frontier="the classic: one thread a pixel, its window summed",
              why="each thread sums its own window from global memory (L1 serves the neighbours' reads)")
def direct(sch, alg):
    out = sch.get_sblock(alg.output)
    c, by, bx, ty, tx, yr, xv = thread_tile(sch, out, tile_y=8, tile_x=32, rows=1, vector=1)
    total = sch.get_sblock(alg.sum)
    sch.compute_at(total, tx)
    sch.set_scope(total, 0, "local")


@tvm_schedule("box", box.Separable, compiled={"radius": [1, 2, 3]}, frontier="separable sums, a register block a thread",
              why="each thread makes 4 adjacent outputs on 8 rows with every stage inlined and unrolled: nvcc "
                  "finds the row sums its rows share (one per input row a thread, not 2r+1)",
              axes="rows=4,[8],16 vector=2,[4] warps=2,[4],8")
def register_rows(sch, alg, point):
    register_block(sch, alg, (alg.columns, alg.rows, alg.clamped), **point)


@tvm_schedule("box", box_framed.SeparableFramed, compiled={"radius": [1, 2, 3]}, args={"rows": 8, "lanes": 4},
              frontier="the interior without clamps at any shape: the lever against symbolic sizes' clamps and guards",
              why="register_rows' block (4 adjacent outputs on 8 rows a thread, 4 x 32 threads, unrolled) on the outputs "
                  "whose window stays inside the image, at any shape: byte loads at affine indices, no clamp, one guard "
                  "a thread, each row sum the thread's outputs share computed once; the clamped frame is a second kernel")
def register_rows_interior(sch, alg):
    """The interior's tiles a thread each, 4 x 32 threads a block (register_rows'
    default point), a tile's row sums and outputs unrolled, so that the row
    sums stay in registers. Not vectorised, unlike register_rows: the interior
    starts at column r, off any alignment TVM could prove. The frame's pixels
    256 threads a block."""
    framed_tiles(sch, alg, warps=4)
    unrolled(sch, sch.get_sblock(alg.rows), 2)  # the tile's rows + 2r input rows and its lanes


@tvm_schedule("box", box_framed.SeparableFramed, compiled={"radius": [1, 2, 3]},
              args={"rows": 8, "lanes": 4, "staged": True},
              frontier="register_rows_interior's interior stored a row at a time through shared memory: the lever "
                       "against its strided byte stores, where the exact class stores 32-bit words",
              why="register_rows_interior (a thread's 4 adjacent outputs on 8 rows of the interior, 4 x 32 threads) "
                  "writing its outputs into the block's 32 x 128 tile in shared memory, then the tile copied to the "
                  "image a row at a time, a byte a thread (a 32-bit word where the width is whole words, the tiles "
                  "from column 4) under the tiles' guard: a warp's store is 32 consecutive bytes (128 in words), "
                  "where each thread storing its own 4 bytes a row leaves 3 of every 4 to other stores")
def register_rows_interior_staged(sch, alg):
    staged_interior(sch, alg, warps=4)


def staged_interior(sch, alg, warps):
    """A staged framed algorithm's (box_framed's `staged`) tiles as
    register_rows_interior's (a thread each, 32 x `warps` threads a block,
    unrolled; the frame 256 pixels a block), each block's outputs kept in
    shared memory, then stored a row at a time (row_stores). The store
    stage places the block and the tiles are computed at it: `output` has
    two writers (the store, the frame), so the store cannot be moved to the
    tiles (reverse_compute_at wants a block that is its buffer's only writer)."""
    store = sch.get_sblock(alg.store)
    c, y, x = sch.get_loops(store)
    by, y = sch.split(y, [None, warps * alg.tile_rows])
    bx, x = sch.split(x, [None, 32 * alg.lanes])
    sch.reorder(c, by, bx, y, x)
    bind_grid(sch, c, by, bx)
    tile = sch.get_sblock(alg.tile)
    sch.compute_at(tile, bx)
    ty, tx = sch.get_loops(tile)[-2:]
    sch.bind(ty, "threadIdx.y")
    sch.bind(tx, "threadIdx.x")
    sch.set_scope(sch.get_sblock(alg.interior), 0, "shared")
    unrolled(sch, sch.get_sblock(alg.interior), 2)  # the tile's rows and lanes
    unrolled(sch, sch.get_sblock(alg.rows), 2)  # the tile's rows + 2r input rows and its lanes
    row_stores(sch, store, 32, warps=warps)
    pixel_list_threads(sch, sch.get_sblock(alg.frame), 256)


@tvm_schedule("box", box.Direct, compiled={"radius": [1]}, why="each thread makes a 4x8 block, unrolled with the sums inlined, as Halide's rows8: each input "
                  "row loaded once a thread into registers and used by every window that covers it")
def rows8(sch, alg):
    out = sch.get_sblock(alg.output)
    c, by, bx, ty, tx, yr, xv = thread_tile(sch, out, tile_y=32, tile_x=128, rows=8, vector=4)
    total = sch.get_sblock(alg.sum)
    sch.compute_at(total, tx)
    sch.set_scope(total, 0, "local")
    unrolled(sch, total, 4)
    unrolled(sch, out, 2)


def strip_blocks(sch, alg, columns=512, threads=128):
    """A block a strip of alg.strip rows by `columns` columns (whole runs of
    alg.run), channels on blockIdx.z; its `threads` threads first make the
    tile's column sums in shared memory (a thread a column, down the strip),
    then the outputs. Returns the output's loops (c, by, bx, y, g) and the
    column sums' block."""
    out = sch.get_sblock(alg.output)
    c, y, g = sch.get_loops(out)
    by, y = sch.split(y, [None, alg.strip])
    bx, g = sch.split(g, [None, columns // alg.run])  # columns divides box.WHOLE_COLUMNS: no partial tile
    sch.reorder(c, by, bx, y, g)
    bind_grid(sch, c, by, bx)
    sums = sch.get_sblock(alg.columns)
    sch.compute_at(sums, bx)
    sch.set_scope(sums, 0, "shared")
    _, tx = sch.split(sch.get_loops(sums)[-1], [None, threads])
    sch.bind(tx, "threadIdx.x")
    return (c, by, bx, y, g), sums


def pad_rows(sch, block, factor, offset):
    """The rows of the buffer `block` writes (its last axis but one) padded to factor k + offset elements."""
    rows = len(sch.get(block).writes[0].source.shape) - 2
    sch.storage_align(block, 0, axis=rows, factor=factor, offset=offset)


def warp_runs(sch, alg, y, g, sums, threads=128):
    """Each warp's lanes on alg.run rows by 32 / alg.run adjacent runs, the
    shared rows padded to 32k + 1 words: lane (row i, run j) reads word
    i + j * run + constant, modulo 32, so a warp's reads of the column sums
    fall in 32 different banks (lanes on one row would read every run-th
    word: run-way conflicts). Returns the thread loop."""
    rows = alg.run
    _, yi = sch.split(y, [None, rows])
    warp, go, gi = sch.split(g, [threads // 32, None, 32 // rows])
    sch.reorder(go, warp, yi, gi)
    lanes = sch.fuse(warp, yi, gi)
    sch.bind(lanes, "threadIdx.x")
    pad_rows(sch, sums, factor=32, offset=1)
    return lanes


def whole_tiles(sch, alg, columns):
    """Whether the function's image shape is fixed (a `specialised` library)
    and a whole number of strips by `columns`."""
    height, width = sch.get(sch.get_sblock(alg.output)).writes[0].source.shape[1:]  # the output's
    fixed = all(isinstance(e, tirx.IntImm) for e in (height, width))
    return fixed and int(height) % alg.strip == 0 and int(width) % columns == 0


def vector_store(sch, alg, lanes):
    """A run's outputs made in registers, then stored at once (alg.run bytes:
    one 32- or 128-bit store). Only for a shape in whole tiles: the cached
    stage's copy-out drops the output's guard (`x < width`), so TVM 0.27
    would store past the image's edge."""
    copy = sch.cache_write(sch.get_sblock(alg.output), 0, "local")
    sch.reverse_compute_at(copy, lanes)
    sch.vectorize(sch.get_loops(copy)[-1])
    return copy


# The verdict's radii only (7 and the largest): each is a library generated and nvcc'd in CI. The radius could be a run-time scalar (the strip's loops and the
# shared tile sized for the largest), but the runtime has no box binding to pass it
# (runtime/languages/tvm_variant.h: tvm_scalars), and n would be divided at run time.
SUMS_RADII = {"radius": [7, BOX_MAX_RADIUS]}


# A block's tile of column sums (strip x columns, as 16 x 512): 34 KB of
# shared memory at the largest radius (15) with its 2r columns of border,
# within the 48 KB a block may take without opting in.
TILE_SUMS = 16 * 512


# The staging tile's rows padded by 32 bytes (8 banks): a quarter warp's
# 16-byte stores, 4 rows by 2 runs (warp_runs), then fall in 32 different banks.
STAGING_PAD = 32

def staged_tiles(sch, alg, bx, lanes, threads=128):
    """A staged algorithm's (box.RunningSums(staged=True)) tile of staging in
    shared memory beside the column sums, each run written to it at once (no
    guard to drop: staging is whole tiles), then `store` copying the tile to
    the image a row at a time, consecutive threads on consecutive bytes: a
    warp's stores fill whole sectors at any shape, the image's guard kept."""
    copy = vector_store(sch, alg, lanes)
    sch.set_scope(copy, 0, "shared")
    pad_rows(sch, copy, factor=128, offset=STAGING_PAD)
    store = sch.get_sblock(alg.store)
    sch.reverse_compute_at(store, bx)
    row_stores(sch, store, threads)


def warp_strips(sch, alg, threads=128, staged=False):
    """Strips of alg.strip rows by TILE_SUMS / alg.strip columns a block, each
    warp's lanes over rows and runs without bank conflicts; staged, each tile
    stored through shared memory (staged_tiles); otherwise at a fixed shape
    (FILTERLAB_SHAPES), each run stored at once."""
    columns = TILE_SUMS // alg.strip
    (c, by, bx, y, g), sums = strip_blocks(sch, alg, columns=columns, threads=threads)
    lanes = warp_runs(sch, alg, y, g, sums, threads=threads)
    if staged:
        staged_tiles(sch, alg, bx, lanes, threads=threads)
    elif whole_tiles(sch, alg, columns):
        vector_store(sch, alg, lanes)


@tvm_schedule("box", box.RunningSums, compiled=SUMS_RADII,
              why="running sums, a strip of 16 rows by 512 columns a block: each thread slides one column's sum down "
                  "the strip into shared memory, then 4 adjacent outputs' sum along their row (4-way bank conflicts)")
def running_sums(sch, alg):
    (c, by, bx, y, g), _ = strip_blocks(sch, alg)
    sch.bind(g, "threadIdx.x")


@tvm_schedule("box", box.RunningSums, compiled=SUMS_RADII,
              why="running_sums with each warp's lanes on 4 rows by 8 runs and the shared rows padded to 32k + 1 "
                  "words (no bank conflicts); with a fixed shape (FILTERLAB_SHAPES), a thread's 4 outputs in one 32-bit store",
              axes="strip=[16],32 run=[4],8,16 threads=64,[128],256",
              algorithm_axes=("strip", "run"))
def running_sums_banks(sch, alg, point):
    warp_strips(sch, alg, threads=point["threads"])


tvm_frozen("box", "running_sums_long", "running_sums_banks", "run=16",
           frontier="TVM's fastest box at radius 7 and 15, the best point of running_sums_banks' sweep",
           why="running sums in runs of 16 outputs (a run's first window, 2r+1 shared reads, shared by 16 outputs, "
               "not 4), each warp's lanes on 16 rows by 2 runs without bank conflicts; with a fixed shape (FILTERLAB_SHAPES), "
               "a thread's 16 outputs in one 128-bit store")


@tvm_schedule("box", box.RunningSums, compiled=SUMS_RADII, args={"run": 16, "staged": True},
              frontier="running_sums_long's coalesced stores at any shape, not only whole tiles",
              why="running_sums_long (runs of 16 outputs, each warp's lanes on 16 rows by 2 runs) writing each run at "
                  "once into a 16 x 512 tile in shared memory, then the tile copied to the image a row at a time, a "
                  "byte a thread (a 32-bit word where the width is whole words) and the image's guard: a warp's "
                  "stores whole sectors at every shape, where each thread storing its own run touches 16 sectors a store")
def running_sums_staged(sch, alg):
    warp_strips(sch, alg, staged=True)
