// CPU schedules of the Gaussian followed by 2x2 max pooling: the fusion
// trade-off. Outputs use GuardWithIf (any size); intermediates may round up
// (the input is clamped; the blur is defined everywhere).
#include "gaussian_maxpool.h"
#include "schedule_helpers.h"
#include "schedule_registry.h"

using namespace Halide;
using filterlab::schedules::parallel_strips;
using filterlab::schedules::Strips;

// The blur computed whole first (gaussian's cpu_tiled schedule), then pooled:
// the blurred image makes a round trip through memory (W*H bytes written and
// read back), but each stage runs its own best loop nest.
FILTERLAB_SCHEDULE(gaussian_maxpool, RowsFirst, cpu, root,
                   FRONTIER("the two filters one after the other: what fusing is measured against")) {
    const int lanes = target.natural_vector_size<uint16_t>();
    Var strip{"strip"}, yo{"yo"}, yi{"yi"};
    p.blurred.compute_root()
        .split(p.blur.y, yo, yi, 32, TailStrategy::GuardWithIf)
        .fuse(yo, p.blur.c, strip)
        .parallel(strip)
        .vectorize(p.blur.x, 2 * lanes, TailStrategy::GuardWithIf);
    p.blur.row.compute_at(p.blurred, strip).vectorize(p.blur.x, lanes, TailStrategy::RoundUp);
    parallel_strips(p, 32, lanes);
}

// Fused: each strip of 16 pooled rows computes the 32 blurred rows it pools
// (and their row pass) into buffers that stay in L1/L2, so nothing but the
// input and the quarter-size output touches memory.
FILTERLAB_SCHEDULE(gaussian_maxpool, RowsFirst, cpu, fused, FRONTIER("the classic fused schedule")) {
    const int lanes = target.natural_vector_size<uint16_t>();
    const Strips s = parallel_strips(p, 16, lanes);
    p.blurred.compute_at(p.output, s.strip).vectorize(p.blur.x, 2 * lanes, TailStrategy::RoundUp);
    p.blur.row.compute_at(p.output, s.strip).vectorize(p.blur.x, lanes, TailStrategy::RoundUp);
}
