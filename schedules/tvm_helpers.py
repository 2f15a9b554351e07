"""What several TVM schedules share (the twin of schedule_helpers.h): the
thread blocks of an output and unrolled loops."""


def thread_tile(sch, block, tile_y, tile_x, rows, vector):
    """Blocks of tile_y x tile_x outputs a plane, each thread `rows` rows of
    `vector` adjacent outputs; channels on blockIdx.z. Returns the loops
    (c, by, bx, ty, tx, yr, xv)."""
    c, y, x = sch.get_loops(block)
    by, ty, yr = sch.split(y, [None, tile_y // rows, rows])
    bx, tx, xv = sch.split(x, [None, tile_x // vector, vector])
    sch.reorder(c, by, bx, ty, tx, yr, xv)
    for loop, axis in ((c, "blockIdx.z"), (by, "blockIdx.y"), (bx, "blockIdx.x"), (ty, "threadIdx.y"),
                       (tx, "threadIdx.x")):
        sch.bind(loop, axis)
    return c, by, bx, ty, tx, yr, xv


def unrolled(sch, block, levels):
    """The block's innermost `levels` loops unrolled: a thread's small arrays stay in registers."""
    for loop in sch.get_loops(block)[-levels:]:
        sch.unroll(loop)


def register_block(sch, alg, stages, rows, vector, warps=4):
    """Every stage of `stages` inlined into the output, each thread `rows` x
    `vector` outputs unrolled: nvcc then finds what neighbouring outputs share
    (an input row, a first pass), which TVM 0.27 cannot stage per thread with
    symbolic image sizes (reports/halide/README.md, the TVM column)."""
    for stage in stages:
        sch.compute_inline(sch.get_sblock(stage))
    out = sch.get_sblock(alg.output)
    thread_tile(sch, out, tile_y=warps * rows, tile_x=32 * vector, rows=rows, vector=vector)
    unrolled(sch, out, 2)
