"""TVM schedules of the 5x5 Gaussian (generators/tvm/gaussian.py's algorithms).

Every stage before the output is computed inside the kernel (inlined): the
launcher allocates nothing (filterlab_build/cuda_source.py).
The weights are the run-time scalars w0, w1, w2 (binding gaussian_weights)."""
from filterlab_build.tvm_registry import tvm_frozen, tvm_schedule
from generators.tvm import gaussian, gaussian_framed, gaussian_interior
from schedules.tvm_helpers import (bind_blocks, framed_tiles, grid_stride, pixel_list_threads, register_block,
                                   thread_tile)


@tvm_schedule("gaussian", gaussian.RowsFirst, frontier="the classic GPU tiling, one thread an output",
              why="one thread per output, both passes and the border inlined: 25 byte loads each, L1 serves the overlap")
def tile(sch, alg):
    sch.compute_inline(sch.get_sblock(alg.row))
    sch.compute_inline(sch.get_sblock(alg.clamped))
    thread_tile(sch, sch.get_sblock(alg.output), tile_y=8, tile_x=32, rows=1, vector=1)


@tvm_schedule("gaussian", gaussian.RowsFirst, frontier="mirrors Halide's fastest CUDA Gaussian, cuda_rows8",
              why="Halide's rows8 tile, 4x8 outputs a thread (128x32 blocks), every stage inlined and unrolled: "
                  "nvcc keeps the thread's input bytes and row passes in registers, each used by up to 5 outputs",
              axes="rows=4,[8],16 vector=2,[4] warps=[4],8 unroll=0,[1]")
def rows8(sch, alg, point):
    register_block(sch, alg, (alg.row, alg.clamped), **point)


tvm_frozen("gaussian", "rows8_r128", "rows8", "max_registers=128",
           frontier="the best point of rows8's register caps",
           why="rows8 with each kernel capped at 128 registers (__maxnreg__): under TVM's __launch_bounds__ ptxas "
               "keeps fewer registers than the unrolled tile can use, uncapped it takes so many that occupancy falls")


@tvm_schedule("gaussian", gaussian_framed.RowsFirstFramed, args={"rows": 8, "lanes": 4},
              frontier="the interior without clamps at any shape: the lever against symbolic sizes' clamps and guards",
              why="rows8's register block (4x8 outputs a thread, 128x32 blocks, unrolled) on the outputs whose window "
                  "stays inside the image, at any shape: byte loads at affine indices, no clamp, one guard a thread, "
                  "so nvcc keeps each input byte a thread shares; the clamped frame is a second kernel")
def rows8_interior(sch, alg):
    """The interior's tiles a thread each, 4 x 32 threads a block (rows8's
    block), a tile's outputs unrolled, its 25 byte loads an output left for
    nvcc to share. Not vectorised, unlike rows8: the interior starts at
    column 2 (a 4-byte store at column 2 + 4t). The frame's pixels 256
    threads a block."""
    framed_tiles(sch, alg, warps=4)


@tvm_schedule("gaussian", gaussian_interior.RowsFirstWithInterior,
              why="at a fixed shape with whole tiles, tiles of 4x16 outputs a thread inside the image load each row's group "
                  "as 16 bytes without clamps and store 16 bytes a row (the clamped frame is a second kernel); "
                  "other shapes run rows8")
def interior16(sch, alg):
    """gaussian_interior's tiles, a thread each (4 x 32 threads a block), its
    window, pixels, row sums and outputs in registers, each computed once,
    the tile's own group of a row one 16-byte load (nvcc keeps the word
    either side of it) and its outputs stored 16 bytes a row; the frame's pixels
    256 threads a block. Other shapes: rows8's register block."""
    if not isinstance(alg, gaussian_interior.RowsFirstInterior):  # rows8 at its default point
        register_block(sch, alg, (alg.row, alg.clamped), rows=8, vector=4)
        return
    store = sch.get_sblock(alg.store)
    c, ty, tx, r, v = sch.get_loops(store)
    by, yt = sch.split(ty, [None, 4])
    bx, xt = sch.split(tx, [None, 32])
    sch.reorder(c, by, bx, yt, xt, r, v)
    bind_blocks(sch, c, by, bx, yt, xt)
    sch.unroll(r)
    sch.vectorize(v)  # a tile's row: one 16-byte store
    for stage in (alg.interior, alg.row, alg.pixels):
        block = sch.get_sblock(stage)
        sch.compute_at(block, xt)
        sch.set_scope(block, 0, "local")
        for loop in sch.get_loops(block)[-2:]:
            sch.unroll(loop)
    window = sch.get_sblock(alg.window)
    sch.compute_at(window, xt)
    sch.set_scope(window, 0, "local")
    *_, row, word = sch.get_loops(window)
    group, lane = sch.split(word, [None, 4])
    sch.unroll(row)
    sch.unroll(group)
    sch.vectorize(lane)  # one 16-byte load a group
    pixel_list_threads(sch, sch.get_sblock(alg.frame))


@tvm_schedule("gaussian", gaussian.ColumnsFirst, why="Halide's columns_rows8 tile, 4x8 outputs a thread, every stage inlined and unrolled: the "
                  "vertical passes of a thread's columns computed once, in registers")
def columns_rows8(sch, alg):
    register_block(sch, alg, (alg.column, alg.clamped), rows=8, vector=4)


@tvm_schedule("gaussian", gaussian.RowsFirst, frontier="what TVM's autotuner finds, beside the schedules written by hand",
              why="MetaSchedule's choice, frozen (filterlab_build/tvm_metaschedule.py on the H100): its CUDA space for a "
                  "stencil without a reduction is this one point, every stage inlined and the image one loop "
                  "over 256 blocks of 1024 threads")
def metaschedule(sch, alg):
    # The tuner's best trace, replayed on every shape.
    sch.compute_inline(sch.get_sblock(alg.row))
    sch.compute_inline(sch.get_sblock(alg.clamped))
    grid_stride(sch, sch.get_sblock(alg.output))
