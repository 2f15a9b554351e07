// The box's running sums (generators/box.h: RunningSums) in TVM's staged
// layout (schedules/box/tvm_box.py: running_sums_staged): a block owns a tile
// of 16 rows by 512 outputs and walks it in three stages, each with all of the
// block's threads, through shared memory.
#include "box.h"
#include "running_sums_registers.h"
#include "schedule_registry.h"

using namespace Halide;
using filterlab::box::kChunk;
using filterlab::box::kStripRows;
using filterlab::box::RunningSums;

namespace {

constexpr int kThreads = 128;       // a block's, in every stage
constexpr int kTileColumns = 512;   // a block's outputs across: 32 runs of kChunk
constexpr int kRunsAcrossWarp = 4;  // a warp's lanes: 4 adjacent runs by 8 rows

// A row of column sums holds the tile's columns and 2r of border (542 at the
// largest radius), padded to 546 16-bit sums, 273 words (17 modulo 32): the
// lane on row k and run j then reads bank 17k + 8j (plus the same offset for
// all), 32 different banks for a warp's 8 rows by 4 runs, so the sliding
// reads never conflict at any radius (unpadded, a row is 256 + r words, and
// at an even r rows and runs share banks).
constexpr int kSumsRow = 546;
// A row of the staged outputs, padded by 64 bytes to 144 words (16 modulo
// 32): a run's 16 bytes are one 16-byte store, which a warp issues a quarter
// (2 rows by 4 runs) at a time, and the two rows then fill the two halves of
// the banks (at 512 bytes they would fall in the same ones).
constexpr int kMeansRow = kTileColumns + 64;

// Stage 1: the tile's column sums (its 512 + 2r columns), a thread a column,
// each column's recurrence serial down the strip, in shared memory.
void column_sums(RunningSums &p, const Var &block) {
    p.column_sums.compute_at(p.output, block)
        .store_in(MemoryType::GPUShared)
        .bound_storage(p.x, kSumsRow)
        .bound_storage(p.k, kStripRows)
        .bound_storage(p.strip, 1)
        .bound_storage(p.c, 1);
    for (int stage = 0; stage < 3; stage++) {
        Var xa{"xa"}, xb{"xb"};
        // GuardWithIf, not RoundUp: the sums computed are those stored, within kSumsRow.
        Stage s = p.column_sums.update(stage);
        s.split(p.x, xa, xb, kThreads, TailStrategy::GuardWithIf).gpu_threads(xb);
        // Unrolled down the strip, as nvcc unrolls TVM's loop of 15 steps: the
        // loads of the rows entering and leaving are then issued ahead of the adds.
        if (stage == 2) s.reorder(p.down, xa, xb).unroll(p.down);
    }
}

// Stage 2: the tile's means, a run of kChunk outputs of one row a thread at a
// time (4 runs a thread), each run's window sum slid along it in registers
// and its outputs stored to shared memory at once. A warp's lanes are 4
// adjacent runs by 8 rows (see kSumsRow).
void staged_means(RunningSums &p, const Var &block) {
    Var xc{"xc"}, xw{"xw"}, xq{"xq"}, xl{"xl"}, xa{"xa"}, xb{"xb"};
    Var ys{"ys"}, yl{"yl"}, lanes{"lanes"}, thread{"thread"};
    // Aligned to whole runs and strips, so a run is one chunk of window_sums
    // and the tile one strip of column sums.
    p.means.compute_at(p.output, block)
        .store_in(MemoryType::GPUShared)
        .align_bounds(p.x, kChunk)
        .align_bounds(p.y, kStripRows)
        .bound_storage(p.x, kMeansRow)
        .bound_storage(p.y, kStripRows)
        .bound_storage(p.c, 1)
        .split(p.x, xc, xw, kChunk, TailStrategy::RoundUp)
        .split(xc, xq, xl, kRunsAcrossWarp, TailStrategy::RoundUp)
        .split(xq, xa, xb, kThreads / (kRunsAcrossWarp * kStripRows), TailStrategy::RoundUp)
        .split(p.y, ys, yl, kStripRows, TailStrategy::RoundUp)
        .reorder(xw, xl, yl, xb, xa, ys, p.c)
        .fuse(xl, yl, lanes)
        .fuse(lanes, xb, thread)
        .reorder(xw, xa, ys, thread, p.c)
        .vectorize(xw)
        .gpu_threads(thread);
    // A run's window sums in the thread's registers.
    filterlab::box::window_sums_in_registers(p, p.means, xa);
}

// Stage 3: the output, the block's tile of means copied out a row at a time,
// consecutive threads on consecutive 4-byte groups. `tail`: how x's blocks end.
void copy_out(RunningSums &p, Stage s, const Var &xo, TailStrategy tail) {
    Var xi{"xi"}, xt{"xt"}, xv{"xv"}, yo{"yo"}, yi{"yi"};
    s.split(p.x, xo, xi, kTileColumns, tail)
        .split(xi, xt, xv, kTileColumns / kThreads)
        .split(p.y, yo, yi, kStripRows, TailStrategy::GuardWithIf)
        .reorder(xv, yi, xt, xo, yo, p.c)
        .gpu_blocks(xo, yo, p.c)
        .gpu_threads(xt)
        .vectorize(xv);
}

}  // namespace

// A block owns a strip of 16 rows by 512 outputs and 128 threads; each stage
// spans all of them: the tile's column sums slid down the strip a thread a column
// into shared memory, then its means made a run of 16 a thread (lanes on 4 runs by
// 8 rows, conflict-free reads of the padded sums) into a shared tile, then the tile
// stored a row at a time, each warp's stores on 128 consecutive bytes. Why it should
// be fast: it is TVM's running_sums_staged, stage for stage; sums_strips' threads
// each make one chunk's 16 rows, so a warp's lanes read sums 8 words apart (bank
// conflicts) and store 16 bytes apart (each store instruction half of 16 sectors).
FILTERLAB_SCHEDULE(box, RunningSums, gpu, sums_staged,
                   FRONTIER("fastest Halide CUDA box at the contract's largest radius at the largest shapes (8192², 6000x4000, 4096x2304 RGB)")) {
    const Var xo{"xo"};
    // A width the tiles divide needs no guard on x.
    copy_out(p, p.output.specialize(p.width % kTileColumns == 0), xo, TailStrategy::RoundUp);
    copy_out(p, p.output, xo, TailStrategy::GuardWithIf);
    column_sums(p, xo);
    staged_means(p, xo);
}
