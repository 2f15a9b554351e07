// CUDA schedule of 2x2 max pooling.
#include "maxpool.h"
#include "schedule_helpers.h"
#include "schedule_registry.h"

using namespace Halide;

// Each thread produces 4 adjacent outputs (one 32-bit store) on 2 rows, from
// two 8-byte reads of each of its 4 input rows. Its space: the outputs per
// thread across (the width of its loads and stores) and down.
FILTERLAB_SCHEDULE(maxpool, Direct, gpu, vectorized, AXES("vector=1,2,[4],8 rows=1,[2],4"),
                   CUDA_ONLY("predicated_vectors"),
                   FRONTIER("fastest Halide CUDA max pool (meets the hand kernel)")) {
    filterlab::schedules::thread_blocks(p.output, p.x, p.y, p.c,
                                        {.vector = point["vector"], .rows = point["rows"], .warps = 8});
}

// vectorized writing its output as 32-bit words where the width allows (the
// binding's choice; its bytes twin is vectorized at the same point): a
// thread's `vector` outputs across are vector / 4 words, stored together (16
// bytes at 16 outputs), where Halide stores 8-bit vectors 8 bytes at a time at
// most. Its space: 1, 2 or 4 words a thread across, 1 or 2 rows down.
FILTERLAB_SCHEDULE(maxpool, Direct, gpu, vectorized_words, AXES("vector=4,8,[16] rows=1,[2]"), WRITES("words"),
                   CUDA_ONLY("a thread's 32 input bytes a row: OpenCL C in Halide 21 has no uint8x32")) {
    const filterlab::schedules::BlockShape shape{.vector = point["vector"], .rows = point["rows"], .warps = 8};
    if (!p.writes_words) {
        filterlab::schedules::thread_blocks(p.output, p.x, p.y, p.c, shape);
        return;
    }
    filterlab::schedules::thread_blocks(p.words, p.wx, p.y, p.c,
                                        {.vector = shape.vector / 4, .rows = shape.rows, .warps = 8});
}
