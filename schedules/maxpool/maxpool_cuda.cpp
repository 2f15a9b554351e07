// CUDA schedule of 2x2 max pooling.
#include "maxpool.h"
#include "schedule_helpers.h"
#include "schedule_registry.h"

using namespace Halide;

// Each thread produces 4 adjacent outputs (one 32-bit store) on 2 rows, from
// two 8-byte reads of each of its 4 input rows.
FILTERLAB_SCHEDULE(maxpool, cuda, vectorized, "") {
    filterlab::schedules::thread_blocks(p.output, p.x, p.y, p.c, {.vector = 4, .rows = 2, .warps = 8});
}
