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
