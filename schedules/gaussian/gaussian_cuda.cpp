// CUDA schedules of the 5x5 Gaussian.
#include "gaussian.h"
#include "schedule_helpers.h"
#include "schedule_registry.h"

using namespace Halide;

// One thread per output, both passes inlined: 25 loads per thread, mostly L1 hits.
FILTERLAB_SCHEDULE(gaussian, cuda, tile, "") {
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    p.output.gpu_tile(p.x, p.y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf);
}

// The block's row pass (its tile plus 2 rows above and below) is computed
// once into shared memory; the vertical pass reads it from there.
FILTERLAB_SCHEDULE(gaussian, cuda, shared_rows, "") {
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, rxo{"rxo"}, ryo{"ryo"}, rxi{"rxi"}, ryi{"ryi"};
    p.output.gpu_tile(p.x, p.y, xo, yo, xi, yi, 64, 8, TailStrategy::GuardWithIf);
    p.row.compute_at(p.output, xo)
        .tile(p.x, p.y, rxo, ryo, rxi, ryi, 64, 8, TailStrategy::RoundUp)
        .gpu_threads(rxi, ryi);
}

// Each thread computes 4 adjacent outputs on 8 rows, unrolled and inlined:
// the row passes of its 12 input rows are computed once and reused by the 5
// output rows that need each of them (registers, no scratch memory).
FILTERLAB_SCHEDULE(gaussian, cuda, rows8, "") {
    filterlab::schedules::thread_blocks(p.output, p.x, p.y, p.c, 4, 8, 4);
}

// As rows8, but the block's input tile (with its 2-pixel halo) is first
// staged in shared memory, one clamped byte load per sample by all threads
// together; the unrolled per-thread windows then read shared memory, where
// the clamp is gone and loads can be vectors, instead of gathering each byte
// from global memory through the clamp. (On the H100 it runs as fast as
// rows8, no faster: the gathers are not what limits rows8; see
// reports/gaussian/bench_h100.md.)
FILTERLAB_SCHEDULE(gaussian, cuda, staged_rows8, "") {
    filterlab::schedules::thread_blocks(p.output, p.x, p.y, p.c, 4, 8, 4);
    Var sxo{"sxo"}, syo{"syo"}, sxi{"sxi"}, syi{"syi"};
    p.clamped.compute_at(p.output, p.c)  // the innermost block loop
        .tile(p.x, p.y, sxo, syo, sxi, syi, 32, 4, TailStrategy::RoundUp)
        .gpu_threads(sxi, syi);
}
