"""TVM schedules of the box filter (generators/tvm/box.py's algorithms)."""
from tvm_helpers import verdict_shape, register_block, thread_tile, unrolled
from tvm_registry import tvm_schedule


import box

RADII = {"radius": range(1, 16)}


@tvm_schedule("box", box.Direct, compiled=RADII, frontier="the classic: one thread a pixel, its window summed",
              why="each thread sums its own window from global memory (L1 serves the neighbours' reads)",
              specialised=[verdict_shape("box")])
def direct(sch, alg):
    out = sch.get_sblock(alg.output)
    c, by, bx, ty, tx, yr, xv = thread_tile(sch, out, tile_y=8, tile_x=32, rows=1, vector=1)
    total = sch.get_sblock(alg.sum)
    sch.compute_at(total, tx)
    sch.set_scope(total, 0, "local")


@tvm_schedule("box", box.Separable, compiled={"radius": [1, 2, 3]}, frontier="separable sums, a register block a thread",
              why="each thread makes 4 adjacent outputs on 8 rows with every stage inlined and unrolled: nvcc "
                  "finds the row sums its rows share (one per input row a thread, not 2r+1)",
              specialised=[verdict_shape("box")])
def register_rows(sch, alg):
    register_block(sch, alg, (alg.columns, alg.rows, alg.clamped), rows=8, vector=4)


@tvm_schedule("box", box.Direct, compiled={"radius": [1]}, why="each thread makes a 4x8 block, unrolled with the sums inlined, as Halide's rows8: each input "
                  "row loaded once a thread into registers and used by every window that covers it",
              specialised=[verdict_shape("box")])
def rows8(sch, alg):
    out = sch.get_sblock(alg.output)
    c, by, bx, ty, tx, yr, xv = thread_tile(sch, out, tile_y=32, tile_x=128, rows=8, vector=4)
    total = sch.get_sblock(alg.sum)
    sch.compute_at(total, tx)
    sch.set_scope(total, 0, "local")
    unrolled(sch, total, 4)
    unrolled(sch, out, 2)


def strip_blocks(sch, alg, threads):
    """A block a strip of alg.strip rows by `threads` runs of alg.run
    columns, channels on blockIdx.z; its threads first make the tile's
    column sums in shared memory (a thread a column, down the strip), then
    the outputs. Returns the output's loops (c, by, bx, y, g) under the
    block, and the column sums' block."""
    out = sch.get_sblock(alg.output)
    c, y, g = sch.get_loops(out)
    by, y = sch.split(y, [None, alg.strip])
    bx, g = sch.split(g, [None, threads])  # threads * run divides box.WHOLE_COLUMNS: no partial tile
    sch.reorder(c, by, bx, y, g)
    for loop, axis in ((c, "blockIdx.z"), (by, "blockIdx.y"), (bx, "blockIdx.x")):
        sch.bind(loop, axis)
    columns = sch.get_sblock(alg.columns)
    sch.compute_at(columns, bx)
    sch.set_scope(columns, 0, "shared")
    _, tx = sch.split(sch.get_loops(columns)[-1], [None, threads])
    sch.bind(tx, "threadIdx.x")
    return (c, by, bx, y, g), columns


SUMS_RADII = {"radius": [7, 15]}


@tvm_schedule("box", box.RunningSums, compiled=SUMS_RADII,
              why="running sums, a strip of 16 rows by 512 columns a block: each thread slides one column's sum down "
                  "the strip into shared memory, then 4 adjacent outputs' sum along their row (4-way bank conflicts)",
              specialised=[verdict_shape("box")])
def running_sums(sch, alg):
    (c, by, bx, y, g), _ = strip_blocks(sch, alg, threads=128)
    sch.bind(g, "threadIdx.x")


@tvm_schedule("box", box.RunningSums, compiled=SUMS_RADII,
              frontier="running sums: the work per pixel does not grow with the radius",
              why="running_sums with each warp's 32 runs on 4 rows by 8 runs and the shared rows padded to 32k + 1 "
                  "words: a warp's reads of the column sums fall in 32 different banks",
              specialised=[verdict_shape("box")])
def running_sums_banks(sch, alg):
    (c, by, bx, y, g), columns = strip_blocks(sch, alg, threads=128)
    yo, yi = sch.split(y, [None, 4])
    warp, go, gi = sch.split(g, [4, None, 8])
    sch.reorder(yo, go, warp, yi, gi)
    sch.bind(sch.fuse(warp, yi, gi), "threadIdx.x")
    sch.storage_align(columns, 0, axis=1, factor=32, offset=1)
