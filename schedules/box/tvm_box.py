"""TVM schedules of the box filter (generators/tvm/box.py's algorithms)."""
from tvm_registry import tvm_schedule

import box

RADII = {"radius": range(1, 16)}


@tvm_schedule("box", box.Direct, compiled=RADII, frontier="the classic: one thread a pixel, its window summed",
              why="each thread sums its own window from global memory (L1 serves the neighbours' reads)")
def direct(sch, alg):
    output = sch.get_sblock(alg.output)
    c, y, x = sch.get_loops(output)
    by, ty = sch.split(y, [None, 8])
    bx, tx = sch.split(x, [None, 32])
    sch.reorder(c, by, bx, ty, tx)
    sch.bind(c, "blockIdx.z")
    sch.bind(by, "blockIdx.y")
    sch.bind(bx, "blockIdx.x")
    sch.bind(ty, "threadIdx.y")
    sch.bind(tx, "threadIdx.x")
    total = sch.get_sblock(alg.sum)
    sch.compute_at(total, tx)
    sch.set_scope(total, 0, "local")


def _thread_tile(sch, block, tile_y, tile_x, rows, vector):
    """Blocks of tile_y x tile_x outputs a plane; each thread `rows` rows of
    `vector` adjacent outputs. Returns the loops (c, by, bx, ty, tx, yr, xv)."""
    c, y, x = sch.get_loops(block)
    by, ty, yr = sch.split(y, [None, tile_y // rows, rows])
    bx, tx, xv = sch.split(x, [None, tile_x // vector, vector])
    sch.reorder(c, by, bx, ty, tx, yr, xv)
    for loop, axis in ((c, "blockIdx.z"), (by, "blockIdx.y"), (bx, "blockIdx.x"), (ty, "threadIdx.y"),
                       (tx, "threadIdx.x")):
        sch.bind(loop, axis)
    return c, by, bx, ty, tx, yr, xv


def _unrolled(sch, block, levels):
    """The block's innermost `levels` loops unrolled: a thread's small arrays stay in registers."""
    for loop in sch.get_loops(block)[-levels:]:
        sch.unroll(loop)


@tvm_schedule("box", box.Separable, compiled={"radius": [1, 2, 3]}, frontier="separable sums in registers, no shared memory",
              why="each thread makes 4 adjacent outputs on 8 rows: its row sums (8 + 2r rows of 4) in "
                  "registers, each input row summed once a thread; the column sums read them")
def register_rows(sch, alg):
    out = sch.get_sblock(alg.output)
    c, by, bx, ty, tx, yr, xv = _thread_tile(sch, out, tile_y=32, tile_x=128, rows=8, vector=4)
    for stage in (alg.columns, alg.rows):
        block = sch.get_sblock(stage)
        sch.compute_at(block, tx)
        sch.set_scope(block, 0, "local")
        _unrolled(sch, block, 2)
    sch.compute_inline(sch.get_sblock(alg.clamped))
    _unrolled(sch, out, 2)


@tvm_schedule("box", box.Direct, compiled={"radius": [1]}, frontier="mirrors Halide's fastest radius-1 box, cuda_rows8",
              why="each thread makes a 4x8 block, unrolled with the sums inlined, as Halide's rows8: each input "
                  "row loaded once a thread into registers and used by every window that covers it")
def rows8(sch, alg):
    out = sch.get_sblock(alg.output)
    c, by, bx, ty, tx, yr, xv = _thread_tile(sch, out, tile_y=32, tile_x=128, rows=8, vector=4)
    total = sch.get_sblock(alg.sum)
    sch.compute_at(total, tx)
    sch.set_scope(total, 0, "local")
    _unrolled(sch, total, 4)
    _unrolled(sch, out, 2)
