// CUDA schedules of the Gaussian followed by 2x2 max pooling: the fusion
// trade-off. Output tiles use GuardWithIf, so any size is correct.
#include "../gaussian/gaussian_registers.h"
#include "gaussian_maxpool.h"
#include "schedule_registry.h"

using namespace Halide;
using filterlab::schedules::gaussian_output_blocks;
using filterlab::schedules::gaussian_thread_blocks;
using filterlab::schedules::thread_blocks;

// Two kernels: the blur at root with gaussian's cuda_rows8 schedule (4x8
// outputs per thread, input and row passes in registers), then the pooling
// with maxpool's cuda_vectorized one. The blurred image is written to and
// read back from device memory.
FILTERLAB_SCHEDULE(gaussian_maxpool, RowsFirst, gpu, root,
                   CUDA_ONLY("predicated_vectors"),
                   FRONTIER("the two filters one after the other: what fusing is measured against")) {
    p.blurred.compute_root();
    gaussian_thread_blocks(p.blur, p.blurred, p.blur.x, p.blur.y, p.blur.c,
                           {.threads = {.vector = 4, .rows = 8, .warps = 4}, .input_too = true});
    thread_blocks(p.output, p.x, p.y, p.c, {.vector = 4, .rows = 2, .warps = 8});
}

// One kernel: each thread makes 2x4 pooled outputs from the 4x8 blurred pixels under
// them, blurred as in gaussian's cuda_rows8 (input and row passes in registers) and
// inlined into the pooling: the windows do not overlap, so the blur never leaves
// registers and no pixel is blurred twice.
// Its space: pooled outputs a thread across and down, warps a block.
FILTERLAB_SCHEDULE(gaussian_maxpool, RowsFirst, gpu, fused, AXES("vector=1,[2],4 rows=2,[4] warps=2,[4]"),
                   CUDA_ONLY("predicated_vectors"),
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
                   CUDA_ONLY("predicated_vectors"),
                   FRONTIER("the columns-first fused schedule, its capped and words points beside it")) {
    gaussian_thread_blocks(p.blur, p.output, p.x, p.y, p.c,
                           {.threads = {.vector = point["vector"], .rows = point["rows"], .warps = point["warps"]},
                            .scale = 2, .input_too = true});
}

// columns_fused with the register cap at 128, the cap sweep's best (the ledger):
// its vertical sums kept in registers without spilling at Halide's 64.
FILTERLAB_FROZEN(gaussian_maxpool, gpu, columns_fused_r128, columns_fused, "max_registers=128",
                 FRONTIER("columns_fused at the cap its sweep found best"));

// columns_fused writing its pooled output as 32-bit words where the width
// allows (the binding's choice; its bytes twin is columns_fused at the same
// point): a thread's `vector` pooled outputs across are vector / 4 words,
// stored together (8 bytes at 8 outputs), where its bytes twin stores 2 or
// 4 bytes. Its space: 1 or 2 words a thread across, rows and warps as
// columns_fused's.
FILTERLAB_SCHEDULE(gaussian_maxpool, ColumnsFirst, gpu, columns_fused_words,
                   AXES("vector=[4],8 rows=[2],4 warps=2,[4]"), WRITES("words"),
                   CUDA_ONLY("predicated_vectors")) {
    gaussian_output_blocks(p, p.blur,
                           {.threads = {.vector = point["vector"], .rows = point["rows"], .warps = point["warps"]},
                            .scale = 2, .input_too = true});
}

// columns_fused_words at 4 x 2 pooled outputs a thread, the register cap at
// 128: its thread's vertical sums in registers.
FILTERLAB_FROZEN(gaussian_maxpool, gpu, columns_fused_words_r128, columns_fused_words,
                 "vector=4+rows=2+warps=4+max_registers=128",
                 FRONTIER("fastest Halide CUDA Gaussian -> pool in the one run"));

// fused on ColumnsFirstDot (gaussian's dot_shared): a thread's blurred pixels in
// registers, their side taps one dp2a reduction, the block's vertical sums in shared
// memory (as in dot_shared, for the same reason). Why it might be fast: the fused
// traffic (read once, write a quarter) with 3 instructions for an output's
// horizontal taps instead of 5. Its space: pooled outputs a thread across and down.
FILTERLAB_SCHEDULE(gaussian_maxpool, ColumnsFirstDot, gpu, dot_fused, AXES("vector=[2],4 rows=2,[4]"),
                   CUDA_ONLY("predicated_vectors"),
                   FRONTIER("ColumnsFirstDot's fused schedule (dp2a)")) {
    const int vector = point["vector"], rows = point["rows"];
    const auto loops = thread_blocks(p.output, p.x, p.y, p.c, {.vector = vector, .rows = rows, .warps = 4});
    filterlab::schedules::in_registers(p.blurred, p.blur.x, p.blur.y, p.output, loops.xt, 2 * vector, 2 * rows);
    filterlab::schedules::gaussian_dot_in_registers(p.blur, p.output, loops.xt, p.c, 2 * vector, 2 * rows);
}

// columns_fused on a word view (gaussian's words_columns): the block's vertical sums
// first into shared memory from 16-byte loads, two pixels per 32-bit multiply-add;
// each thread unpacks the sums under its blurred pixels, blurs and pools. Why it
// might be fast: the fused traffic with a quarter of the loads and half the
// vertical arithmetic of columns_fused. The image's width is an input after w2 (the
// pooled output cannot tell it). Its space: pooled outputs a thread across and
// down, `stage` as words_columns'; the default is the H100 sweep's best point.
FILTERLAB_SCHEDULE(gaussian_maxpool, ColumnsFirst, gpu, words_fused, AXES("vector=2,[4] rows=2,[4] stage=16,[32]"),
                   READS("words"),
                   CUDA_ONLY("predicated_vectors")) {
    const filterlab::schedules::BlockShape threads{.vector = point["vector"], .rows = point["rows"], .warps = 4};
    thread_blocks(p.output, p.x, p.y, p.c, threads);
    // At c, the innermost block loop.
    filterlab::schedules::packed_columns_in_shared(p.blur, p.output, p.c, threads, point["stage"]);
}
