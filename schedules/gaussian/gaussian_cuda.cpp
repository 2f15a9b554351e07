// CUDA schedules of the 5x5 Gaussian.
#include "gaussian_registers.h"
#include "schedule_registry.h"

using namespace Halide;
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

// Each thread computes 4 adjacent outputs on 8 rows; its 8 x 12 input bytes
// and the row passes of its 12 input rows (4 x 12, 16 bits) are computed once
// into registers, each row pass then used by the (up to 5) output rows that
// need it. Inlined instead, Halide repeated all 25 loads and 30 multiplies of every
// output (406 us at 8192^2, against 116 us with the reuse made explicit).
// (Tuned on the H100 against 4x4, 2x8, 8x8, 4x16 outputs per thread, 2 and 8
// warps, and the input left in L1: reports/gaussian/tuning.md.) Its space:
// the outputs per thread across (one store of that many bytes) and down (each
// row pass shared by more rows; more registers).
FILTERLAB_SCHEDULE(gaussian, RowsFirst, gpu, rows8, AXES("vector=2,[4],8 rows=2,4,[8],16"),
                   CUDA_ONLY("predicated vectors: OpenCL C in Halide 21 has no extract_mask_element"),
                   FRONTIER("fastest Halide CUDA Gaussian in the one run")) {
    gaussian_thread_blocks(p, p.output, p.x, p.y, p.c,
                           {.threads = {.vector = point["vector"], .rows = point["rows"], .warps = 4}, .input_too = true});
}

// rows8, but the block's input tile (and its 2-pixel halo) is staged in shared
// memory by all threads together, one clamped byte load per sample, rather
// than each thread loading its overlapping 8 x 12 window into registers.
FILTERLAB_SCHEDULE(gaussian, RowsFirst, gpu, staged_rows8,
                   CUDA_ONLY("predicated vectors: OpenCL C in Halide 21 has no extract_mask_element")) {
    gaussian_thread_blocks(p, p.output, p.x, p.y, p.c, {.threads = {.vector = 4, .rows = 8, .warps = 4}, .input_too = false});
    Var sxo{"sxo"}, syo{"syo"}, sxi{"sxi"}, syi{"syi"};
    p.clamped.compute_at(p.output, p.c)  // the innermost block loop
        .tile(p.x, p.y, sxo, syo, sxi, syi, 32, 4, TailStrategy::RoundUp)
        .gpu_threads(sxi, syi);
}

// rows8 on the columns-first algorithm (generators/gaussian.h), as
// hw_columns_first orders it: a thread's vertical sums are 16-bit (the rows-first
// second pass needs 32), each used by up to 5 outputs of its row, and the
// clamp is `likely`, so the kernel (no barrier) gets an interior part without
// clamps. Its space as rows8's.
FILTERLAB_SCHEDULE(gaussian, ColumnsFirst, gpu, columns_rows8, AXES("vector=2,[4],8 rows=4,[8],16"),
                   CUDA_ONLY("predicated vectors: OpenCL C in Halide 21 has no extract_mask_element"),
                   FRONTIER("ColumnsFirst's best GPU schedule")) {
    gaussian_thread_blocks(p, p.output, p.x, p.y, p.c,
                           {.threads = {.vector = point["vector"], .rows = point["rows"], .warps = 4}, .input_too = true});
}

// columns_rows8 on a word view (READS("words")): the block's vertical pass
// runs first into shared memory, its threads across the block's words, 4
// aligned words (one 16-byte load of each input row) a thread and two pixels
// per 32-bit multiply-add (the even and odd pixels of a word in 16-bit lanes,
// generators/gaussian.h); each thread then unpacks the sums under its outputs
// for the horizontal pass. Why it should be fast: a quarter of the load
// instructions and half of the vertical arithmetic of columns_rows8, as
// hw_columns_first does it, and no register window to spill (words staged
// per thread in registers cannot be aligned: Halide finds no constant extent
// for them). Its space: outputs per thread across and down, and the staging's
// threads across (`stage`, of the block's 32 x 4: 16 x 8, or 32 x 4 as the output's); 8 x 4
// and 32 frozen from the H100 sweep (204.6 us; 8 x 8 at 16 across, the
// earlier default, 274.8: reports/halide/issue30/call15/sweeps.txt).
FILTERLAB_SCHEDULE(gaussian, ColumnsFirst, gpu, words_columns, AXES("vector=4,[8] rows=[4],8 stage=16,[32]"),
                   READS("words"),
                   CUDA_ONLY("predicated vectors: OpenCL C in Halide 21 has no extract_mask_element")) {
    // (The unpacked sums under a thread's outputs kept in registers instead
    // went to local memory: 192 bytes a thread, misaligned vector reads.)
    const filterlab::schedules::BlockShape threads{.vector = point["vector"], .rows = point["rows"], .warps = 4};
    filterlab::schedules::thread_blocks(p.output, p.x, p.y, p.c, threads);
    // At c, the innermost block loop.
    filterlab::schedules::packed_columns_in_shared(p, p.output, p.c, threads, point["stage"]);
}

// The columns-first Gaussian with its horizontal pass as a dot product
// (generators/gaussian.h, columns_first_dot): each output's four side taps
// are one vectorised reduction of 16-bit sums by 8-bit weights, which Halide
// emits as dp2a.lo + dp2a.hi (the centre tap a multiply-add); the block's
// vertical sums in shared memory, as in the probe that found the per-thread
// register form spilling (scripts/probes/gaussian_dp2a.py: the reduction's
// misaligned 4-lane reads of a register array go to local memory). Why it
// should be fast: 3 instructions for the horizontal taps of an output where
// the pairwise form takes 5. Its space: outputs per thread across and down.
FILTERLAB_SCHEDULE(gaussian, ColumnsFirstDot, gpu, dot_shared, AXES("vector=4,[8] rows=[4],8"),
                   FRONTIER("ColumnsFirstDot's only schedule (dp2a)")) {
    const int vector = point["vector"], rows = point["rows"];
    const auto loops =
        filterlab::schedules::thread_blocks(p.output, p.x, p.y, p.c, {.vector = vector, .rows = rows, .warps = 4});
    filterlab::schedules::gaussian_dot_in_registers(p, p.output, loops.xt, p.c, vector, rows);
}
