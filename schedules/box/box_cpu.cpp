// CPU schedules of the box filter. The output tail uses GuardWithIf so every
// schedule is correct down to a 1x1 image; producers may compute a little
// past the edge (RoundUp), which the clamped input makes safe.
#include "box.h"
#include "schedule_helpers.h"
#include "schedule_registry.h"

using namespace Halide;

using filterlab::schedules::parallel_strips;
using filterlab::schedules::Strips;

// Everything at root, serial: the baseline every other schedule is measured against.
FILTERLAB_SCHEDULE(box, Separable, cpu, naive, FRONTIER("the baseline every CPU schedule is measured against")) {
    p.row_sum.compute_root();
    p.output.compute_root();
}

// Row sums per strip of 32 rows, vectorised over x (16 lanes of u16) and the
// strips spread over all cores: each input row is read from L1/L2, not memory.
FILTERLAB_SCHEDULE(box, Separable, cpu, tiled,
                   FRONTIER("the classic tiling: row sums per strip, vectorised, strips over the cores")) {
    const Strips s = parallel_strips(p, 32, 2 * target.natural_vector_size<uint16_t>());
    p.row_sum.compute_at(p.output, s.strip)
        .vectorize(p.x, target.natural_vector_size<uint16_t>(), TailStrategy::RoundUp);
}

// Line buffer: within a strip the row sums slide down one row per output row
// (Halide's sliding window keeps 2r+1), so each sample is summed horizontally once.
// Its space: rows a strip (taller, less recomputed; shorter, more strips), vectors.
FILTERLAB_SCHEDULE(box, Separable, cpu, sliding, AXES("rows=16,32,[64],128 vectors=1,[2],4"),
                   FRONTIER("the classic line buffer (sliding window)")) {
    const Strips s = parallel_strips(p, point["rows"], point["vectors"] * target.natural_vector_size<uint16_t>());
    p.row_sum.store_at(p.output, s.strip)
        .compute_at(p.output, s.yi)
        .vectorize(p.x, target.natural_vector_size<uint16_t>(), TailStrategy::RoundUp);
}

// sliding at 16 rows a strip and 4 vectors: the sweep's best point on the
// H100 machine's CPU.
FILTERLAB_FROZEN(box, cpu, sliding_rows16, sliding, "rows=16+vectors=4",
                   FRONTIER("fastest Halide CPU box in the one run"));
