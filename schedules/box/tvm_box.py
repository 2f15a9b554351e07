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
