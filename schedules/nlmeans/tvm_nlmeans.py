"""TVM schedules of non-local means (generators/tvm/nlmeans.py's algorithms).

Every schedule keeps the whole filter in one kernel (filterlab_build/cuda_source.py: a
library's host code must not allocate): a thread owns one or a few pixels,
all their channels, and loops over the search window itself; its
accumulators (the M + 1 = 4 slots of accum) live in registers across that
loop, the patch distance and weight of each offset in registers too. The
block's input tile plus its halo (R = p + s a side, all M = 3 channel slots,
as float) is staged once in shared memory (the algorithm's `padded` stage).
Tiles stay within SLACK + 1 = 33 outputs a side (nlmeans.covered).
"""
from filterlab_build.tvm_registry import tvm_schedule
from generators.tvm import nlmeans

WINDOWS = {"patch": [0, 1, 3], "search": [2, 3, 10]}


def _fused(sch, alg, threads_x, threads_y, rows):
    """Blocks of threads_x x (threads_y * rows) outputs, a thread making `rows`
    of them down a column, each with its own search loop; the tile and halo in
    shared memory."""
    output = sch.get_sblock(alg.output)
    c, y, x = sch.get_loops(output)
    by, ty, yr = sch.split(y, [None, threads_y, rows])
    bx, tx = sch.split(x, [None, threads_x])
    sch.reorder(by, bx, ty, tx, yr, c)
    sch.bind(by, "blockIdx.y")
    sch.bind(bx, "blockIdx.x")
    sch.bind(ty, "threadIdx.y")
    sch.bind(tx, "threadIdx.x")
    sch.unroll(yr)
    sch.unroll(c)
    # The accumulators per thread, in registers: offsets outside, the rows and slots inside.
    accum = sch.get_sblock(alg.accum)
    sch.compute_at(accum, tx, preserve_unit_loops=True)
    sch.set_scope(accum, 0, "local")
    k, ay, ax, dy, dx = sch.get_loops(accum)[-5:]
    sch.reorder(dy, dx, ay, ax, k)
    sch.unroll(ay)
    sch.unroll(k)
    # Per offset and row: the patch distance and its weight, in registers.
    weight = sch.get_sblock(alg.weight)
    sch.compute_at(weight, ay, preserve_unit_loops=True)
    sch.set_scope(weight, 0, "local")
    distance = sch.get_sblock(alg.distance)
    sch.compute_at(distance, ay, preserve_unit_loops=True)
    sch.set_scope(distance, 0, "local")
    for loop in sch.get_loops(distance)[-2:]:  # the patch; the channel loop runs to the run-time C
        sch.unroll(loop)
    sch.decompose_reduction(distance, sch.get_loops(distance)[-3])
    sch.decompose_reduction(accum, dy)
    # The tile and halo of the input, as float, in shared memory, by all the block's threads.
    padded = sch.get_sblock(alg.padded)
    sch.compute_at(padded, bx, preserve_unit_loops=True)
    sch.set_scope(padded, 0, "shared")
    pc, py, px = sch.get_loops(padded)[-3:]
    fused = sch.fuse(py, px)  # the channel loop kept outside: fused in, its index could run past M
    _, sy, sx = sch.split(fused, [None, threads_y, threads_x])
    sch.bind(sy, "threadIdx.y")
    sch.bind(sx, "threadIdx.x")


@tvm_schedule("nlmeans", nlmeans.Direct, compiled=WINDOWS,
              frontier="the fused direct schedule: one kernel, a thread a pixel",
              why="a thread per pixel loops over the window itself, accumulators and weights in registers, "
                  "the tile and halo staged once in shared memory")
def fused(sch, alg):
    _fused(sch, alg, 32, 8, 1)


@tvm_schedule("nlmeans", nlmeans.Direct, compiled=WINDOWS,
              frontier="the tile of Halide's best direct GPU schedule (cuda_fused: 32x32, 4 rows a thread)",
              why="Halide cuda_fused's blocks (32x32 outputs, 32x8 threads, 4 rows each) with fused's per-thread "
                  "search loop: the staged tile's halo is shared by 4x the outputs of fused's 32x8 blocks")
def fused_rows4(sch, alg):
    _fused(sch, alg, 32, 8, 4)
