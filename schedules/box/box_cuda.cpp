// CUDA schedules of the box filter. Output tiles use GuardWithIf so any image
// size is correct; intermediate stages may round up (the input is clamped).
#include "box.h"
#include "schedule_helpers.h"
#include "schedule_registry.h"

using namespace Halide;

// One thread per output, all sums inlined: a thread's (2r+1)^2 loads mostly hit L1.
// Its space: the block's width (longer coalesced rows) and height (more rows shared in L1).
FILTERLAB_SCHEDULE(box, Separable, gpu, tile, AXES("tile_x=16,[32],64 tile_y=2,4,[8],16"),
                   FRONTIER("the classic GPU tiling, one thread an output")) {
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    p.output.gpu_tile(p.x, p.y, xo, yo, xi, yi, point["tile_x"], point["tile_y"], TailStrategy::GuardWithIf);
}

// The block's input tile and halo staged once in shared memory by all its threads;
// the window sums then read only shared memory. The staging is tiled by the block's
// own 64x8, so a larger radius means more loads a thread, never a larger block.
FILTERLAB_SCHEDULE(box, Separable, gpu, shared_tile, FRONTIER("the classic shared-memory staging")) {
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    p.output.gpu_tile(p.x, p.y, xo, yo, xi, yi, 64, 8, TailStrategy::GuardWithIf);
    for (Func staged : {p.clamped, p.row_sum}) {
        Var sxo{"sxo"}, syo{"syo"}, sxi{"sxi"}, syi{"syi"};
        staged.compute_at(p.output, xo)
            .tile(p.x, p.y, sxo, syo, sxi, syi, 64, 8, TailStrategy::RoundUp)
            .gpu_threads(sxi, syi);
    }
}

namespace {

using filterlab::schedules::BlockShape;
using filterlab::schedules::ThreadLoops;

// For radius 1 only (other radii fail with a clear message); see thread_blocks.
ThreadLoops radius1_thread_blocks(filterlab::box::Separable &p, const char *id, const BlockShape &shape) {
    // The specialisation carries the schedule; any other radius fails cleanly.
    const ThreadLoops loops =
        filterlab::schedules::thread_blocks(p.output.specialize(p.radius == 1), p.x, p.y, p.c, shape);
    p.output.specialize_fail(std::string(id) + " is compiled for radius 1 only");
    return loops;
}

}  // namespace

// Each thread makes 4 adjacent pixels (one 32-bit store) on 8 rows, its row sums
// sliding down those rows in registers: each input row summed once a thread, not
// 2r+1 times. Registers need a fixed window: radius 1 only.
FILTERLAB_SCHEDULE(box, Separable, gpu, register_rows, SUPPORTS("radius=1"),
                   CUDA_ONLY("predicated_vectors")) {
    const ThreadLoops loops = radius1_thread_blocks(p, "box/cuda_register_rows", {.vector = 4, .rows = 8, .warps = 8});
    Var rx{"rx"};
    p.row_sum.store_at(p.output, loops.xt)
        .compute_at(p.output, loops.yr)
        .split(p.x, rx, p.x, 4, TailStrategy::RoundUp)
        .vectorize(p.x);
}

// Each thread makes a 4x8 block, unrolled with the sums inlined: the compiler keeps
// each of its input rows in registers once (no scratch memory, unlike store_at), so
// each input sample is loaded 10/8 times a thread.
FILTERLAB_SCHEDULE(box, Separable, gpu, rows8, SUPPORTS("radius=1"),
                   CUDA_ONLY("predicated_vectors"),
                   FRONTIER("fastest Halide CUDA box at radius 1 in the one run")) {
    radius1_thread_blocks(p, "box/cuda_rows8", {.vector = 4, .rows = 8, .warps = 4});
}
