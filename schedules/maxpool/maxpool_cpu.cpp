// CPU schedule of 2x2 max pooling.
#include "maxpool.h"
#include "schedule_helpers.h"
#include "schedule_registry.h"

using namespace Halide;

// Strips of output rows over all cores, a vector of u8 outputs per step (the
// two input rows are read as dense vectors and deinterleaved): bandwidth-bound.
FILTERLAB_SCHEDULE(maxpool, Direct, cpu, vectorized, FRONTIER("fastest Halide CPU max pool")) {
    filterlab::schedules::parallel_strips(p, 16, target.natural_vector_size<uint8_t>());
}
