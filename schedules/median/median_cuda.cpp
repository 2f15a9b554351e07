// CUDA schedules of the median filter, each compiled for the k its SUPPORTS lists.
#include "median.h"
#include "schedule_helpers.h"
#include "schedule_registry.h"

using namespace Halide;

// One thread per output, everything inlined: each thread sorts its k columns.
FILTERLAB_SCHEDULE(median, Direct, gpu, tile, FRONTIER("the classic GPU tiling, one thread an output")) {
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    p.output.gpu_tile(p.x, p.y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf);
}

// The block sorts the columns of its tile (with the k-1 halo columns) once,
// into shared memory; each output then merges k of them.
FILTERLAB_SCHEDULE(median, Direct, gpu, shared_columns,
                   FRONTIER("the classic shared-memory staging of the column sorts")) {
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, sxo{"sxo"}, sxi{"sxi"};
    p.output.gpu_tile(p.x, p.y, xo, yo, xi, yi, 64, 4, TailStrategy::GuardWithIf);
    p.columns.compute_at(p.output, xo)
        .split(p.x, sxo, sxi, 64, TailStrategy::RoundUp)
        .gpu_threads(sxi, p.y);
}

// Each thread computes 4 adjacent outputs: their 4 + k - 1 sorted columns are
// computed once into registers and shared between them.
FILTERLAB_SCHEDULE(median, Direct, gpu, register_columns) {
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, xt{"xt"}, xv{"xv"};
    const int per_thread = 4;
    p.output.tile(p.x, p.y, xo, yo, xi, yi, 32 * per_thread, 8, TailStrategy::GuardWithIf)
        .split(xi, xt, xv, per_thread, TailStrategy::GuardWithIf)
        .reorder(xv, xt, yi, p.c, xo, yo)
        .unroll(xv)
        .gpu_blocks(xo, yo, p.c)
        .gpu_threads(xt, yi);
    p.columns.compute_at(p.output, xt)
        .store_in(MemoryType::Register)
        .bound_extent(p.x, per_thread + p.size - 1)
        .unroll(p.x);
}

// Each thread makes a 4x4 block: its 6x6 input bytes loaded into registers once, its
// 6x4 sorted columns computed from them once, each shared by up to 3 outputs of its
// row. For 3x3 only: at 5x5 such blocks are slower than register_columns.
// Its space: the block's side (more sharing, more registers), warps a GPU block.
FILTERLAB_SCHEDULE(median, Direct, gpu, register_block, SUPPORTS("size=3"), AXES("block=2,3,[4] warps=2,4,[8],16"),
                   FRONTIER("fastest Halide CUDA median at 3x3 in the one run (Direct's best)")) {
    using namespace filterlab::schedules;
    const int block = point["block"];
    const ThreadLoops loops = thread_blocks(p.output, p.x, p.y, p.c,
                                            {.vector = block, .rows = block, .warps = point["warps"], .across = Across::unrolled});
    in_registers(p.columns, p.x, p.y, p.output, loops.xt, block + p.size - 1, block);
    in_registers(p.clamped, p.x, p.y, p.output, loops.xt, block + p.size - 1, block + p.size - 1);
}
