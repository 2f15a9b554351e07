// CUDA schedules of the Gaussian followed by 2x2 max pooling: the fusion
// trade-off. Output tiles use GuardWithIf, so any size is correct.
#include "../gaussian/gaussian_registers.h"
#include "gaussian_maxpool.h"
#include "schedule_registry.h"

using namespace Halide;
using filterlab::schedules::gaussian_thread_blocks;
using filterlab::schedules::thread_blocks;

// Two kernels: the blur at root with gaussian's cuda_rows8 schedule (4x8
// outputs per thread, input and row passes in registers), then the pooling
// with maxpool's cuda_vectorized one. The blurred image is written to and
// read back from device memory.
FILTERLAB_SCHEDULE(gaussian_maxpool, RowsFirst, gpu, root,
                   CUDA_ONLY("predicated vectors: OpenCL C in Halide 21 has no extract_mask_element"),
                   FRONTIER("the two filters one after the other: what fusing is measured against")) {
    p.blurred.compute_root();
    gaussian_thread_blocks(p.blur, p.blurred, p.blur.x, p.blur.y, p.blur.c,
                           {.threads = {.vector = 4, .rows = 8, .warps = 4}, .input_too = true});
    thread_blocks(p.output, p.x, p.y, p.c, {.vector = 4, .rows = 2, .warps = 8});
}

// One kernel: each thread computes 2x4 pooled outputs from the 4x8 blurred
// pixels under them, the blur done as in gaussian's cuda_rows8 (input and
// row passes in registers) and inlined into the pooling (pooling windows do
// not overlap, so no blurred pixel is computed twice): the blur never leaves
// registers. (4x2 and 4x4 pooled outputs per thread, tried on the H100,
// were 2.7x and 4.8x slower: reports/gaussian/tuning.md.) Its space: the
// pooled outputs per thread across and down, and the warps per block.
FILTERLAB_SCHEDULE(gaussian_maxpool, RowsFirst, gpu, fused, AXES("vector=1,[2],4 rows=2,[4] warps=2,[4]"),
                   CUDA_ONLY("predicated vectors: OpenCL C in Halide 21 has no extract_mask_element"),
                   FRONTIER("RowsFirst's fused schedule")) {
    gaussian_thread_blocks(p.blur, p.output, p.x, p.y, p.c,
                           {.threads = {.vector = point["vector"], .rows = point["rows"], .warps = point["warps"]},
                            .scale = 2, .input_too = true});
}

// fused on the columns-first blur (gaussian's columns_rows8): the 16-bit
// vertical sums of a thread's blurred pixels in registers, the interior
// without clamps. Its space as fused's.
FILTERLAB_SCHEDULE(gaussian_maxpool, ColumnsFirst, gpu, columns_fused,
                   AXES("vector=1,[2],4 rows=2,[4] warps=2,[4]"),
                   CUDA_ONLY("predicated vectors: OpenCL C in Halide 21 has no extract_mask_element"),
                   FRONTIER("fastest Halide CUDA Gaussian -> pool in the one run")) {
    gaussian_thread_blocks(p.blur, p.output, p.x, p.y, p.c,
                           {.threads = {.vector = point["vector"], .rows = point["rows"], .warps = point["warps"]},
                            .scale = 2, .input_too = true});
}

// fused on the dot-product blur (gaussian's dot_shared, generators/gaussian.h
// columns_first_dot): each thread's blurred pixels under its pooled outputs
// made in registers, their four side taps one vectorised reduction (dp2a),
// the block's vertical sums in shared memory (in registers, the reduction's
// misaligned reads go to local memory: scripts/probes/gaussian_dp2a.py). Why
// it might be fast: the fused pipeline's read-once, write-a-quarter traffic
// with 3 instructions for an output's horizontal taps where the pairwise
// form takes 5. CUDA only (OpenCL: "Unhandled intrinsic in C backend:
// extract_mask_element"). Its space: pooled outputs per thread across and down.
FILTERLAB_SCHEDULE(gaussian_maxpool, ColumnsFirstDot, gpu, dot_fused, AXES("vector=[2],4 rows=2,[4]"),
                   CUDA_ONLY("predicated vectors: OpenCL C in Halide 21 has no extract_mask_element"),
                   FRONTIER("ColumnsFirstDot's fused schedule (dp2a)")) {
    const int vector = point["vector"], rows = point["rows"];
    const auto loops = thread_blocks(p.output, p.x, p.y, p.c, {.vector = vector, .rows = rows, .warps = 4});
    filterlab::schedules::in_registers(p.blurred, p.blur.x, p.blur.y, p.output, loops.xt, 2 * vector, 2 * rows);
    filterlab::schedules::gaussian_dot_in_registers(p.blur, p.output, loops.xt, p.c, 2 * vector, 2 * rows);
}

// columns_fused on a word view (READS("words"); gaussian's words_columns):
// the block's vertical sums computed first into shared memory from 16-byte
// loads, two pixels per 32-bit multiply-add, each thread then unpacking the
// sums under its blurred pixels for the horizontal pass and pooling them.
// Why it might be fast: the fused pipeline's read-once, write-a-quarter
// traffic with a quarter of the load instructions and half the vertical
// arithmetic of columns_fused. The image's width is the pipeline's input
// after w2 (the pooled output cannot tell it). CUDA only (OpenCL: "Unhandled
// intrinsic in C backend: extract_mask_element"). Its space: pooled outputs
// per thread across and down, and the staging's threads across (`stage`, as
// gaussian's words_columns); the default, 4 x 4 and 32, is the H100 sweep's
// best (160 us, against cuda_columns_fused's 104: its sums re-read from
// shared memory per tap; reports/halide/issue30/call15/).
FILTERLAB_SCHEDULE(gaussian_maxpool, ColumnsFirst, gpu, words_fused, AXES("vector=2,[4] rows=2,[4] stage=16,[32]"),
                   READS("words"),
                   CUDA_ONLY("predicated vectors: OpenCL C in Halide 21 has no extract_mask_element")) {
    const filterlab::schedules::BlockShape threads{.vector = point["vector"], .rows = point["rows"], .warps = 4};
    thread_blocks(p.output, p.x, p.y, p.c, threads);
    // At c, the innermost block loop.
    filterlab::schedules::packed_columns_in_shared(p.blur, p.output, p.c, threads, point["stage"]);
}
