// CUDA schedules of the Gaussian followed by 2x2 max pooling: the fusion
// trade-off. Output tiles use GuardWithIf, so any size is correct.
#include "gaussian_maxpool.h"
#include "schedule_helpers.h"
#include "schedule_registry.h"

using namespace Halide;
using filterlab::schedules::thread_blocks;

// Two kernels: the blur at root with gaussian's cuda_rows8 schedule (4x8
// outputs per thread), then the pooling with maxpool's cuda_vectorized one.
// The blurred image is written to and read back from device memory.
FILTERLAB_SCHEDULE(gaussian_maxpool, cuda, root, "") {
    p.blurred.compute_root();
    thread_blocks(p.blurred, p.blur.x, p.blur.y, p.blur.c, 4, 8, 4);
    thread_blocks(p.output, p.x, p.y, p.c, 4, 2, 8);
}

// One kernel: each thread computes 4x2 pooled outputs from the 8x4 blurred
// pixels under them, inlined (pooling windows do not overlap, so no blurred
// pixel is computed twice); the blur never leaves registers.
FILTERLAB_SCHEDULE(gaussian_maxpool, cuda, fused, "") {
    thread_blocks(p.output, p.x, p.y, p.c, 4, 2, 8);
}
