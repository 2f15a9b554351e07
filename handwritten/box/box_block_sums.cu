// Box mean by running sums a block at a time, every radius of the contract: a
// block of 128 threads owns a tile of ROWS rows by 480 columns and computes it
// in three phases, each thread's work short and independent of the others':
//  1. column sums: thread t owns the 4 image columns x0 - 16 + 4t (the tile's
//     480 and 16 either side), loads its word of every row the tile's window
//     needs into registers at once (ROWS + 2r loads in flight a thread, no
//     serial chain of waits), and slides the 4 vertical sums down the tile in
//     16-bit lanes, writing each row's sums to shared memory;
//  2. row sums: each thread slides one horizontal sum along a run of 60
//     outputs of one row, reading the column sums from shared memory 4 a
//     read (rows padded so that no two lanes' reads share a bank), divides by (2r+1)^2 with
//     one multiply-high, and writes the bytes to a staging tile;
//  3. stores: the staging tile goes to the image 16 bytes a thread,
//     consecutive threads on consecutive bytes of a row.
// Why: hw_running_sums gives a warp a band of 480 columns and walks it down
// serially (a row's means need the whole warp's shuffles), so an image of a
// few hundred bands by strips holds too few warps to hide that chain; here
// the same tile is 4 warps, each with a few hundred independent instructions.
// Gold: reference::box.
#include <array>
#include <cstdint>
#include <utility>

#include "box_columns.cuh"
#include "registry.h"
#include "strip_words.cuh"

namespace filterlab::handwritten {
namespace {

using box_columns::evens;
using box_columns::Magic;
using box_columns::odds;

constexpr int kThreads = 128;                   // a thread a word of the tile's columns
constexpr int kColumns = 4 * kThreads;          // 512: the outputs and 16 halo columns either side
constexpr int kOutputs = kColumns - 32;         // 480 output columns a tile
constexpr int kRuns = 8;                        // runs a row in phase 2
constexpr int kRunLength = kOutputs / kRuns;    // 60 outputs a run, 15 words
constexpr int kSumWords = kColumns / 2;         // a row of 16-bit column sums, in words
static_assert(kBoxMaxRadius <= 16, "the window's columns lie in the tile's halo");
static_assert(kRunLength % 4 == 0, "runs of whole words");

// Row i's first word of column sums. Phase 2 reads 8 bytes a lane, so a
// warp's reads go a half-warp at a time: rows 4k and 4k + 1 (then 4k + 2 and
// 4k + 3) by the 8 runs, 30 words apart (8 pairs of banks over 16); odd rows
// start 16 banks on, so a half-warp's two rows hit disjoint banks. Every row
// starts on 8 bytes; each row ends 16 words before the next one starts.
constexpr int kPairWords = 2 * kSumWords + 32;
__device__ inline int sum_row(int i) { return kPairWords * (i / 2) + (kSumWords + 16) * (i % 2); }

template <int ROWS>
struct __align__(16) Shared {
    uint32_t sums[kPairWords * ROWS / 2];  // column sums, two 16-bit lanes a word
    uint4 staging[ROWS * kOutputs / 16];   // the tile's outputs, a row 480 bytes
    static_assert(ROWS % 2 == 0, "whole pairs of rows");
};

// The thread's word (image columns x .. x + 3) of image row y. kClamp: one of
// the tile's rows or the thread's columns lies outside the image, so both are
// clamped as FILTERS.md says; otherwise one load, at a 32-bit offset (height *
// pitch < 2^31: kMaxSamples and kMaxSide bound it).
template <bool kClamp>
__device__ inline uint32_t load_word(const Plane &p, int y, int x) {
    if (!kClamp)
        return __ldg(reinterpret_cast<const uint32_t *>(p.in + x + static_cast<uint32_t>(y) * static_cast<uint32_t>(p.in_pitch)));
    const uint8_t *row = p.in + static_cast<std::ptrdiff_t>(clamp_index(y, p.height - 1)) * p.in_pitch;
    uint32_t w = 0;
#pragma unroll
    for (int b = 0; b < 4; b++) w |= static_cast<uint32_t>(row[clamp_index(x + b, p.width - 1)]) << (8 * b);
    return w;
}

// Phase 1: the 4 column sums of the thread's word for the tile's rows y0 ..
// y0 + ROWS - 1, each the sum of 2r + 1 rows around it; e holds columns 0 and
// 2 in 16-bit lanes, o columns 1 and 3 (31 * 255 fits). The whole window's
// words are loaded before the first is used: ROWS + 2r loads in flight.
template <int R, int ROWS, bool kClamp>
__device__ inline void column_sums(const Plane &p, int y0, int x, uint32_t *sums) {
    constexpr int kLoaded = ROWS + 2 * R;  // rows y0 - R .. y0 + ROWS - 1 + R
    uint32_t words[kLoaded];
#pragma unroll
    for (int j = 0; j < kLoaded; j++) words[j] = load_word<kClamp>(p, y0 - R + j, x);
    uint32_t e = 0, o = 0;
#pragma unroll
    for (int j = 0; j <= 2 * R; j++) e += evens(words[j]), o += odds(words[j]);
    const int t = static_cast<int>(threadIdx.x);
#pragma unroll
    for (int i = 0; i < ROWS; i++) {
        if (i > 0) {  // enters row i + 2r, leaves row i - 1 (indices into words)
            e += evens(words[i + 2 * R]) - evens(words[i - 1]);
            o += odds(words[i + 2 * R]) - odds(words[i - 1]);
        }
        // Columns 0, 1 and 2, 3 of the word, in order.
        *reinterpret_cast<uint2 *>(sums + sum_row(i) + 2 * t) = make_uint2(__byte_perm(e, o, 0x5410), __byte_perm(e, o, 0x7632));
    }
}

// Phase 2: run `run` of output row i: outputs 60 run .. 60 run + 59 of the
// tile, each the sum of its 2r + 1 column sums, divided with rounding. The
// run's column sums (columns -r .. 59 + r of it) are read first, 4 a read:
// two reads an output would make the shared-memory pipe the kernel's limit,
// where taking a sum out of its word costs the ALU one instruction.
template <int R>
__device__ inline void row_sums(const uint32_t *sums, uint4 *staging, int i, int run) {
    // Quad q holds the run's columns 4q - 16 .. 4q - 13; the window needs quads
    // (16 - R) / 4 .. (75 + R) / 4.
    const uint2 *quads = reinterpret_cast<const uint2 *>(sums + sum_row(i)) + kRunLength / 4 * run;
    constexpr int kFirst = (16 - R) / 4, kLast = (75 + R) / 4;
    uint2 q4[kLast + 1];
#pragma unroll
    for (int q = kFirst; q <= kLast; q++) q4[q] = quads[q];
    auto column = [&](int c) {  // the run's column c (-R .. 59 + R, known at compile time)
        const uint2 v = q4[(c + 16) / 4];
        const uint32_t w = (c + 16) % 4 < 2 ? v.x : v.y;
        return (c + 16) % 2 ? w >> 16 : w & 0xffffu;
    };
    uint32_t sum = Magic<R>::n / 2;
#pragma unroll
    for (int c = -R; c <= R; c++) sum += column(c);
    uint32_t *out = reinterpret_cast<uint32_t *>(staging) + (i * kOutputs + kRunLength * run) / 4;
#pragma unroll
    for (int k = 0; k < kRunLength; k += 4) {
        uint32_t q[4];
#pragma unroll
        for (int u = 0; u < 4; u++) {
            if (k + u > 0) sum += column(k + u + R) - column(k + u - 1 - R);
            q[u] = __umulhi(sum, static_cast<uint32_t>(Magic<R>::m));
        }
        out[k / 4] = (q[0] + q[1] * 0x100u) + (q[2] + q[3] * 0x100u) * 0x10000u;  // q < 256
    }
}

// Phase 3: the staging tile to the image, 16 bytes a thread, guarded.
template <int ROWS>
__device__ inline void store_tile(const Plane &p, const uint4 *staging, int x0, int y0) {
    constexpr int kChunks = kOutputs / 16;
    for (int k = static_cast<int>(threadIdx.x); k < ROWS * kChunks; k += kThreads) {
        const int y = y0 + k / kChunks, x = x0 + 16 * (k % kChunks);
        if (y >= p.height || x >= p.width) continue;
        uint8_t *dst = p.out + static_cast<std::ptrdiff_t>(y) * p.out_pitch + x;
        const uint4 v = staging[k];
        if (x + 16 <= p.width) __stcs(reinterpret_cast<uint4 *>(dst), v);
        else store_bytes(dst, p.width - x, v);  // the chunk that straddles the right edge
    }
}

template <int R, int ROWS, int MIN_BLOCKS>
__global__ void __launch_bounds__(kThreads, MIN_BLOCKS) box_block_sums_kernel(Plane p) {
    __shared__ Shared<ROWS> shared;
    const int x0 = static_cast<int>(blockIdx.x) * kOutputs, y0 = static_cast<int>(blockIdx.y) * ROWS;
    const int x = x0 - 16 + 4 * static_cast<int>(threadIdx.x);
    // A thread's branch: its word and the tile's rows inside the image, or not
    // (only threads at an image edge clamp).
    const bool inside = y0 - R >= 0 && y0 + ROWS + R <= p.height && x >= 0 && x + 4 <= p.width;
    if (inside) column_sums<R, ROWS, false>(p, y0, x, shared.sums);
    else column_sums<R, ROWS, true>(p, y0, x, shared.sums);
    __syncthreads();
    for (int k = static_cast<int>(threadIdx.x); k < ROWS * kRuns; k += kThreads)
        row_sums<R>(shared.sums, shared.staging, k / kRuns, k % kRuns);
    __syncthreads();
    store_tile<ROWS>(p, shared.staging, x0, y0);
}

template <int R, int ROWS, int MIN_BLOCKS>
void launch(const Plane &p) {
    const dim3 grid((p.width + kOutputs - 1) / kOutputs, (p.height + ROWS - 1) / ROWS);
    box_block_sums_kernel<R, ROWS, MIN_BLOCKS><<<grid, kThreads, 0, stream()>>>(p);
}

template <int ROWS, int MIN_BLOCKS, std::size_t... Rs>
constexpr auto make_launchers(std::index_sequence<Rs...>) {
    return std::array<void (*)(const Plane &), sizeof...(Rs)>{&launch<static_cast<int>(Rs) + 1, ROWS, MIN_BLOCKS>...};
}

template <int ROWS, int MIN_BLOCKS>
void run(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    static constexpr auto launchers = make_launchers<ROWS, MIN_BLOCKS>(std::make_index_sequence<kBoxMaxRadius>{});
    const int radius = static_cast<int>(params.at("radius"));
    for_each_plane(in, out, "box_block_sums_kernel", [&](const Plane &p) { launchers.at(radius - 1)(p); });
}

// Tiles of 16 rows: 32 rows would halve the column sums' warm-up but double
// the registers of the loads in flight and the shared memory, and so halve
// the warps an SM holds. At least 6 blocks an SM: left to itself the compiler
// keeps a run's every column sum live at once, and holds only two blocks; at
// 8 blocks it spills. (The levers' measurements: the hand side's ledger.)
const VariantRegistration registration{
    with_algorithm({"box", "hw_block_sums", Backend::cuda, Kind::handwritten, {}, run<16, 6>}, "running_sums")};

}  // namespace
}  // namespace filterlab::handwritten
