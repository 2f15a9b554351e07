// CUDA schedules of the box filter. Output tiles use GuardWithIf so any image
// size is correct; intermediate stages may round up (the input is clamped).
#include "box.h"
#include "schedule_helpers.h"
#include "schedule_registry.h"

using namespace Halide;

// One thread per output, all sums inlined: the (2r+1)^2 loads of each thread
// mostly hit L1, and a warp reads 32 consecutive bytes per row. Its space: the
// block's width and height (wider blocks, longer coalesced rows; taller ones,
// more rows of the window shared in L1).
FILTERLAB_SCHEDULE(box, Direct, gpu, tile, AXES("tile_x=16,[32],64 tile_y=2,4,[8],16"),
                   FRONTIER("the classic GPU tiling, one thread an output")) {
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    p.output.gpu_tile(p.x, p.y, xo, yo, xi, yi, point["tile_x"], point["tile_y"], TailStrategy::GuardWithIf);
}

// The block's input tile (with its halo) is staged once in shared memory by
// all threads together; the window sums then read shared memory only. The
// staging loops are tiled by the block's own 64x8 shape, so a large radius
// (a larger halo) means more loads per thread, never a larger block.
FILTERLAB_SCHEDULE(box, Direct, gpu, shared_tile, FRONTIER("the classic shared-memory staging")) {
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
ThreadLoops radius1_thread_blocks(filterlab::box::Direct &p, const char *id, const BlockShape &shape) {
    // The specialisation carries the schedule; any other radius fails cleanly.
    const ThreadLoops loops =
        filterlab::schedules::thread_blocks(p.output.specialize(p.radius == 1), p.x, p.y, p.c, shape);
    p.output.specialize_fail(std::string(id) + " is compiled for radius 1 only");
    return loops;
}

}  // namespace

// Each thread produces 4 adjacent pixels (one 32-bit store) on 8 rows; the row
// sums slide down those rows in registers, so each input row is loaded and
// summed once per thread rather than 2r+1 times. Register storage needs a
// fixed window, hence radius 1 only.
FILTERLAB_SCHEDULE(box, Direct, gpu, register_rows, SUPPORTS("radius=1"),
                   CUDA_ONLY("predicated vectors: OpenCL C in Halide 21 has no extract_mask_element")) {
    const ThreadLoops loops = radius1_thread_blocks(p, "box/cuda_register_rows", {.vector = 4, .rows = 8, .warps = 8});
    Var rx{"rx"};
    p.row_sum.store_at(p.output, loops.xt)
        .compute_at(p.output, loops.yr)
        .split(p.x, rx, p.x, 4, TailStrategy::RoundUp)
        .vectorize(p.x);
}

// Each thread computes a 4x8 block of outputs, fully unrolled with the sums
// inlined: the compiler sees the 8 windows' overlapping loads and keeps each
// input row of the thread in registers once (no scratch memory, unlike
// store_at), so each input sample is loaded 10/8 times per thread.
// (Tuned on the H100 against 4x4, 8x4, 4x2 and 8x16 outputs per thread: reports/box/tuning.md.)
FILTERLAB_SCHEDULE(box, Direct, gpu, rows8, SUPPORTS("radius=1"),
                   CUDA_ONLY("predicated vectors: OpenCL C in Halide 21 has no extract_mask_element"),
                   FRONTIER("fastest Halide CUDA box at radius 1 in the one run")) {
    radius1_thread_blocks(p, "box/cuda_rows8", {.vector = 4, .rows = 8, .warps = 4});
}
