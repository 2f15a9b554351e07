"""TVM schedules of the Gaussian followed by 2x2 max pooling
(generators/tvm/gaussian_maxpool.py's algorithms, gaussian_maxpool_framed.py's). All fused
into one kernel, or into two that each write their own pooled outputs (fused_interior):
a library's host code may not allocate (filterlab_build/cuda_source.py), so the blurred
image never goes to global memory; the two-kernel `root` of Halide has no
TVM twin here."""
from filterlab_build.tvm_registry import tvm_schedule
from generators.tvm import gaussian_maxpool, gaussian_maxpool_framed
from schedules.tvm_helpers import framed_tiles, register_block, thread_tile


@tvm_schedule("gaussian_maxpool", gaussian_maxpool.RowsFirst, frontier="the classic: one thread a pooled output",
              why="one thread per pooled output (32x8 threads), the blur and its passes inlined: each of its 4 "
                  "blurred pixels sums 25 byte loads, L1 serves the overlap")
def inlined(sch, alg):
    for stage in (alg.blurred, alg.row, alg.clamped):
        sch.compute_inline(sch.get_sblock(stage))
    thread_tile(sch, sch.get_sblock(alg.output), tile_y=8, tile_x=32, rows=1, vector=1)


@tvm_schedule("gaussian_maxpool", gaussian_maxpool.RowsFirst, frontier="mirrors Halide's cuda_fused",
              why="Halide's fused tile, 2x4 pooled outputs a thread (64x16 blocks), every stage inlined and "
                  "unrolled: nvcc keeps the 4x8 blurred pixels' row passes and input bytes in registers",
              axes="rows=2,[4],8 vector=1,[2],4 warps=2,[4],8")
def fused(sch, alg, point):
    register_block(sch, alg, (alg.blurred, alg.row, alg.clamped), **point)


@tvm_schedule("gaussian_maxpool", gaussian_maxpool_framed.RowsFirstFramed, args={"rows": 4, "lanes": 2},
              frontier="the interior without clamps at any shape: the lever against symbolic sizes' clamps and guards",
              why="fused's register block (4x2 pooled outputs a thread, 64x16 blocks, unrolled) on the pooled outputs "
                  "whose blur windows stay inside the image, at any shape: byte loads at affine indices, no clamp, "
                  "one guard a thread, so nvcc keeps each input byte a thread shares; the clamped frame is a second "
                  "kernel")
def fused_interior(sch, alg):
    """The interior's tiles a thread each, 4 x 32 threads a block (fused's
    block at its point), a tile's pooled outputs unrolled; not vectorised:
    the interior starts at pooled column 1. The frame's outputs 256 threads a block."""
    framed_tiles(sch, alg, warps=4)


@tvm_schedule("gaussian_maxpool", gaussian_maxpool.ColumnsFirst,
              why="Halide's columns_fused tile, 2x4 pooled outputs a thread, every stage inlined and unrolled: "
                  "the vertical sums of the thread's 8 columns computed once, in registers")
def columns_fused(sch, alg):
    register_block(sch, alg, (alg.blurred, alg.column, alg.clamped), rows=4, vector=2)
