// CPU schedules of the median filter (each compiled for k = 3, 5 and 7).
// Outputs use GuardWithIf so any size is right; the sorted columns may be
// computed a little past the edge (the input is clamped).
#include "median.h"
#include "schedule_helpers.h"
#include "schedule_registry.h"

using namespace Halide;

using filterlab::schedules::parallel_strips;
using filterlab::schedules::Strips;

// Everything at root, serial: the baseline.
FILTERLAB_SCHEDULE(median, Direct, cpu, naive, FRONTIER("the baseline every CPU schedule is measured against")) {
    p.columns.compute_root();
    p.output.compute_root();
}

// Every output sorts its own k columns (nothing stored), a vector of outputs
// per instruction, rows in parallel: pure arithmetic, no memory traffic.
FILTERLAB_SCHEDULE(median, Direct, cpu, vectorized) {
    parallel_strips(p, 16, target.natural_vector_size<uint8_t>());
}

// The sorted columns of a row are computed once, vectorised, and shared by
// the k outputs that need each of them: k times fewer column sorts.
FILTERLAB_SCHEDULE(median, Direct, cpu, shared_columns,
                   FRONTIER("fastest Halide CPU median at 3x3: the API's host default")) {
    const Strips s = parallel_strips(p, 16, target.natural_vector_size<uint8_t>());
    p.columns.compute_at(p.output, s.yi).vectorize(p.x, target.natural_vector_size<uint8_t>(), TailStrategy::RoundUp);
}
