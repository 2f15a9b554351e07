// CUDA schedules of the 5x5 Gaussian.
#include "gaussian_registers.h"
#include "schedule_registry.h"

using namespace Halide;
using filterlab::schedules::gaussian_output_blocks;
using filterlab::schedules::gaussian_thread_blocks;

// One thread per output, both passes inlined: 25 loads per thread, mostly L1 hits.
FILTERLAB_SCHEDULE(gaussian, RowsFirst, gpu, tile, FRONTIER("the classic GPU tiling, one thread an output")) {
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    p.output.gpu_tile(p.x, p.y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf);
}

// The block's row pass (its tile plus 2 rows above and below) is computed
// once into shared memory; the vertical pass reads it from there.
FILTERLAB_SCHEDULE(gaussian, RowsFirst, gpu, shared_rows, FRONTIER("the classic shared-memory staging")) {
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, rxo{"rxo"}, ryo{"ryo"}, rxi{"rxi"}, ryi{"ryi"};
    p.output.gpu_tile(p.x, p.y, xo, yo, xi, yi, 64, 8, TailStrategy::GuardWithIf);
    p.row.compute_at(p.output, xo)
        .tile(p.x, p.y, rxo, ryo, rxi, ryi, 64, 8, TailStrategy::RoundUp)
        .gpu_threads(rxi, ryi);
}

// Each thread makes 4 outputs on 8 rows: its 8x12 input bytes and the row passes of
// its 12 input rows computed once into registers, each row pass used by up to 5
// output rows (inlined, Halide repeats every output's 25 loads and 30 multiplies:
// see in_registers). Its space: outputs a thread across (one store) and down (more
// sharing, more registers).
FILTERLAB_SCHEDULE(gaussian, RowsFirst, gpu, rows8, AXES("vector=2,[4],8 rows=2,4,[8],16"),
                   CUDA_ONLY("predicated_vectors"),
                   FRONTIER("fastest Halide CUDA Gaussian in the one run")) {
    gaussian_thread_blocks(p, p.output, p.x, p.y, p.c,
                           {.threads = {.vector = point["vector"], .rows = point["rows"], .warps = 4}, .input_too = true});
}

// rows8 writing its output as 32-bit words where the width allows (the
// binding's choice; its bytes twin is rows8 at the same point): a thread's
// `vector` pixels across are vector / 4 words, stored together (16 bytes at
// 16 pixels), where Halide stores 8-bit vectors 8 bytes at a time at most.
// Its space: 2 or 4 words a thread across, 2 or 4 rows down; the default, 2
// words by 4 rows (8-byte stores, as rows8's), is its sweep's best point.
FILTERLAB_SCHEDULE(gaussian, RowsFirst, gpu, rows8_words, AXES("vector=[8],16 rows=2,[4]"), WRITES("words"),
                   CUDA_ONLY("predicated_vectors")) {
    gaussian_output_blocks(
        p, p, {.threads = {.vector = point["vector"], .rows = point["rows"], .warps = 4}, .input_too = true});
}

// rows8, but the block's input tile (and its 2-pixel halo) is staged in shared
// memory by all threads together, one clamped byte load per sample, rather
// than each thread loading its overlapping 8 x 12 window into registers.
FILTERLAB_SCHEDULE(gaussian, RowsFirst, gpu, staged_rows8,
                   CUDA_ONLY("predicated_vectors")) {
    gaussian_thread_blocks(p, p.output, p.x, p.y, p.c, {.threads = {.vector = 4, .rows = 8, .warps = 4}, .input_too = false});
    Var sxo{"sxo"}, syo{"syo"}, sxi{"sxi"}, syi{"syi"};
    p.clamped.compute_at(p.output, p.c)  // the innermost block loop
        .tile(p.x, p.y, sxo, syo, sxi, syi, 32, 4, TailStrategy::RoundUp)
        .gpu_threads(sxi, syi);
}

// rows8 on ColumnsFirst, as hw_columns_first orders it: a thread's vertical sums are
// 16-bit (rows first needs 32 for its second pass), each used by up to 5 outputs,
// and the `likely` clamp gives the kernel (no barrier) an interior without clamps.
// Its space: as rows8's.
FILTERLAB_SCHEDULE(gaussian, ColumnsFirst, gpu, columns_rows8, AXES("vector=2,[4],8 rows=4,[8],16"),
                   CUDA_ONLY("predicated_vectors"),
                   FRONTIER("ColumnsFirst's best GPU schedule")) {
    gaussian_thread_blocks(p, p.output, p.x, p.y, p.c,
                           {.threads = {.vector = point["vector"], .rows = point["rows"], .warps = 4}, .input_too = true});
}

// columns_rows8 on a word view: the block's vertical pass first, into shared memory,
// a thread 4 aligned words (one 16-byte load a row) at two pixels per 32-bit
// multiply-add; each thread then unpacks the sums under its outputs. Why it should
// be fast: a quarter of the loads and half of the vertical arithmetic of
// columns_rows8, as hw_columns_first. (Shared, not registers: words staged per
// thread cannot be aligned, Halide finds no constant extent for them.) Its space:
// outputs a thread across and down, the staging's threads across (`stage`, of the
// block's 32 x 4); the default is the H100 sweep's best point.
FILTERLAB_SCHEDULE(gaussian, ColumnsFirst, gpu, words_columns, AXES("vector=4,[8] rows=[4],8 stage=16,[32]"),
                   READS("words"),
                   CUDA_ONLY("predicated_vectors")) {
    // (Kept in registers instead, the unpacked sums under a thread's outputs
    // go to local memory: misaligned vector reads of a register array.)
    const filterlab::schedules::BlockShape threads{.vector = point["vector"], .rows = point["rows"], .warps = 4};
    filterlab::schedules::thread_blocks(p.output, p.x, p.y, p.c, threads);
    // At c, the innermost block loop.
    filterlab::schedules::packed_columns_in_shared(p, p.output, p.c, threads, point["stage"]);
}

// ColumnsFirstDot: each output's four side taps one vectorised reduction of 16-bit
// sums by 8-bit weights, which Halide emits as dp2a.lo + dp2a.hi. Why it should be
// fast: 3 instructions for an output's horizontal taps where the pairwise form takes
// 5. The block's vertical sums stay in shared memory: in registers, the reduction's
// misaligned 4-lane reads of them go to local memory.
// Its space: outputs a thread across and down.
FILTERLAB_SCHEDULE(gaussian, ColumnsFirstDot, gpu, dot_shared, AXES("vector=4,[8] rows=[4],8"),
                   FRONTIER("ColumnsFirstDot's only schedule (dp2a)")) {
    const int vector = point["vector"], rows = point["rows"];
    const auto loops =
        filterlab::schedules::thread_blocks(p.output, p.x, p.y, p.c, {.vector = vector, .rows = rows, .warps = 4});
    filterlab::schedules::gaussian_dot_in_registers(p, p.output, loops.xt, p.c, vector, rows);
}
