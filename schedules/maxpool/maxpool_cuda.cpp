// CUDA schedule of 2x2 max pooling.
#include "maxpool.h"
#include "schedule_helpers.h"
#include "schedule_registry.h"

using namespace Halide;

// Each thread produces 4 adjacent outputs (one 32-bit store) on 2 rows, from
// two 8-byte reads of each of its 4 input rows. Its space: the outputs per
// thread across (the width of its loads and stores) and down.
FILTERLAB_SCHEDULE(maxpool, Direct, gpu, vectorized, AXES("vector=1,2,[4],8 rows=1,[2],4"),
                   CUDA_ONLY("predicated vectors: OpenCL C in Halide 21 has no extract_mask_element"),
                   FRONTIER("fastest Halide CUDA max pool (meets the hand kernel)")) {
    filterlab::schedules::thread_blocks(p.output, p.x, p.y, p.c,
                                        {.vector = point["vector"], .rows = point["rows"], .warps = 8});
}
