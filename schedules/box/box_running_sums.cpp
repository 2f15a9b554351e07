// Schedules of the box filter's running-sums algorithm (generators/box.h):
// the work per pixel does not grow with the radius, as in hw_running_sums.
#include "box.h"
#include "running_sums_registers.h"
#include "schedule_helpers.h"
#include "schedule_registry.h"

using namespace Halide;
using filterlab::box::kChunk;
using filterlab::box::kStripRows;
using filterlab::box::RunningSums;

namespace {

// A block owns one strip of 16 rows and `threads` chunks of 16 columns; each
// thread slides the horizontal sum along its own chunk in registers, row by
// row, and writes its 16 outputs (one vector, or byte by byte). The vertical
// sums are the caller's to place, at the block loop it returns.
Var strip_blocks(RunningSums &p, int threads, bool vector) {
    Var xo{"xo"}, xi{"xi"}, xt{"xt"}, xw{"xw"}, yo{"yo"}, yi{"yi"};
    auto blocks = [&](Stage s, TailStrategy tail) {
        s.split(p.x, xo, xi, threads * kChunk, tail)
            .split(xi, xt, xw, kChunk)
            .split(p.y, yo, yi, kStripRows, TailStrategy::GuardWithIf)
            .reorder(xw, yi, xt, xo, yo, p.c)
            .gpu_blocks(xo, yo, p.c)
            .gpu_threads(xt);
        if (vector) {
            s.vectorize(xw);
        } else {
            s.unroll(xw);
        }
    };
    // A width the blocks divide needs no guard on x, so a vector of 16 outputs
    // is stored whole (a guarded one is stored byte by byte).
    if (vector) blocks(p.output.specialize(p.width % (threads * kChunk) == 0), TailStrategy::RoundUp);
    blocks(p.output, TailStrategy::GuardWithIf);
    filterlab::box::window_sums_in_registers(p, p.output, yi);
    return xo;
}

}  // namespace

// A block owns a strip of 16 rows and `threads` chunks of 16 columns: its threads
// run the vertical sums down the strip into shared memory (coalesced byte loads of
// the entering and leaving rows), then each slides the horizontal sum along its
// chunk in registers and writes its 16 outputs. Its space: chunks a block (wider,
// less halo; narrower, more blocks; 128 would need 66 KB of shared memory, over the
// 48 KB a launch gets) and whether a thread's 16 outputs are stored as one vector.
FILTERLAB_SCHEDULE(box, RunningSums, gpu, sums_strips, AXES("threads=16,32,[64] vector=[0],1")) {
    const int threads = point["threads"];
    const Var xo = strip_blocks(p, threads, point["vector"]);
    // The strip's column sums, halo included, in shared memory: threads across
    // x, each column's recurrence serial down the strip.
    p.column_sums.compute_at(p.output, xo).store_in(MemoryType::GPUShared);
    for (int stage = 0; stage < 3; stage++) {
        Var xa{"xa"}, xb{"xb"};
        Stage s = p.column_sums.update(stage);
        s.split(p.x, xa, xb, threads, TailStrategy::RoundUp).gpu_threads(xb);
        if (stage == 2) s.reorder(p.down, xa, xb);
    }
}

// sums_strips on a word view: each thread runs the vertical sums of 4 words (16
// pixels) at once, one 16-byte load a row, two pixels per 32-bit add (even and odd
// bytes in 16-bit lanes). Why it should be fast: a quarter of the loads and half of
// the adds of sums_strips' column pass. Its space: as sums_strips'.
FILTERLAB_SCHEDULE(box, RunningSums, gpu, words_strips, AXES("threads=16,[32],64 vector=0,[1]"), READS("words"),
                   FRONTIER("RunningSums' best GPU schedule (word view)")) {
    const int threads = point["threads"];
    const Var xo = strip_blocks(p, threads, point["vector"]);
    // 4-word aligned, so a thread's 4 words are one aligned vector.
    p.packed_sums.compute_at(p.output, xo)
        .store_in(MemoryType::GPUShared)
        .bound_storage(p.odd, 2)
        .align_bounds(p.wx, 4);
    for (int stage = 0; stage < 3; stage++) {
        Var wo{"wo"}, wv{"wv"}, wa{"wa"}, wb{"wb"};
        Stage s = p.packed_sums.update(stage);
        s.split(p.wx, wo, wv, 4, TailStrategy::RoundUp)
            .split(wo, wa, wb, threads, TailStrategy::GuardWithIf)
            .vectorize(wv)
            .unroll(p.odd)
            .gpu_threads(wb);
        if (stage == 2) s.reorder(wv, p.odd, p.down, wa, wb);
    }
}

// Strips of 16 rows over the cores; in each, the column sums run down the strip
// vectorised over x, then the horizontal sums along each row vectorised over the
// chunks (one lane a 16-column chunk). Why it should be fast: r = 1's work at every r.
FILTERLAB_SCHEDULE(box, RunningSums, cpu, sums_strips, FRONTIER("RunningSums' CPU schedule")) {
    const int lanes = target.natural_vector_size<uint16_t>();
    Var yo{"yo"}, yi{"yi"}, xo{"xo"}, xi{"xi"};
    p.output.split(p.y, yo, yi, kStripRows, TailStrategy::GuardWithIf)
        .reorder(p.x, yi, p.c, yo)
        .parallel(yo)
        .vectorize(p.x, lanes, TailStrategy::GuardWithIf);
    p.column_sums.compute_at(p.output, yo);
    for (int stage = 0; stage < 3; stage++) p.column_sums.update(stage).vectorize(p.x, lanes, TailStrategy::RoundUp);
    p.column_sums.update(2).reorder(p.x, p.down);
    p.window_sums.compute_at(p.output, yo);
    for (int stage = 0; stage < 3; stage++)
        p.window_sums.update(stage).vectorize(p.chunk, lanes / 2, TailStrategy::RoundUp);
    p.window_sums.update(2).reorder(p.chunk, p.across);
}

// sums_strips at 32 threads a block with vector stores: the sweep's best
// point on the H100, at every radius.
FILTERLAB_FROZEN(box, gpu, sums_strips_t32v, sums_strips, "threads=32+vector=1",
                   FRONTIER("RunningSums' best point of sums_strips"));
