"""TVM schedules of the 5x5 Gaussian (generators/tvm/gaussian.py's algorithms).

Every stage before the output is computed inside the kernel (inlined): the
launcher allocates nothing (cuda_source.py).
The weights are the run-time scalars w0, w1, w2 (binding gaussian_weights)."""
from tvm_helpers import grid_stride, verdict_shape, register_block, thread_tile
from tvm_registry import tvm_schedule


import gaussian


@tvm_schedule("gaussian", gaussian.RowsFirst, frontier="the classic GPU tiling, one thread an output",
              why="one thread per output, both passes and the border inlined: 25 byte loads each, L1 serves the overlap")
def tile(sch, alg):
    sch.compute_inline(sch.get_sblock(alg.row))
    sch.compute_inline(sch.get_sblock(alg.clamped))
    thread_tile(sch, sch.get_sblock(alg.output), tile_y=8, tile_x=32, rows=1, vector=1)


@tvm_schedule("gaussian", gaussian.RowsFirst, frontier="mirrors Halide's fastest CUDA Gaussian, cuda_rows8",
              why="Halide's rows8 tile, 4x8 outputs a thread (128x32 blocks), every stage inlined and unrolled: "
                  "nvcc keeps the thread's input bytes and row passes in registers, each used by up to 5 outputs",
              specialised=[verdict_shape("gaussian")])
def rows8(sch, alg):
    register_block(sch, alg, (alg.row, alg.clamped), rows=8, vector=4)


@tvm_schedule("gaussian", gaussian.ColumnsFirst, why="Halide's columns_rows8 tile, 4x8 outputs a thread, every stage inlined and unrolled: the "
                  "vertical passes of a thread's columns computed once, in registers",
              specialised=[verdict_shape("gaussian")])
def columns_rows8(sch, alg):
    register_block(sch, alg, (alg.column, alg.clamped), rows=8, vector=4)


@tvm_schedule("gaussian", gaussian.RowsFirst, frontier="what TVM's autotuner finds, beside the schedules written by hand",
              why="MetaSchedule's choice, frozen (scripts/tvm_metaschedule.py on the H100): its CUDA space for a "
                  "stencil without a reduction is this one point, every stage inlined and the image one loop "
                  "over 256 blocks of 1024 threads",
              specialised=[verdict_shape("gaussian")])
def metaschedule(sch, alg):
    # The tuner's best trace, replayed on every shape.
    sch.compute_inline(sch.get_sblock(alg.row))
    sch.compute_inline(sch.get_sblock(alg.clamped))
    grid_stride(sch, sch.get_sblock(alg.output))
