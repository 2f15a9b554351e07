// The columns-first Gaussian (gaussian_columns_first.cuh: the vertical pass
// in packed 16-bit lanes, the horizontal one with dp2a) fed from a warp's ring
// of rows in shared memory (row_ring.cuh) instead of each lane's loads.
//
// Why: the columns-first kernels wait on their loads (long-scoreboard
// stalls), since the rows a thread has in flight are registers, which limit
// the warps; and each strip of ROWS output rows filters 4 halo rows twice. A
// ring keeps SLOTS rows in flight in shared memory, a row is released as soon
// as the warp has spread it into its window, and a warp walks one tall strip.
// Gold: reference::gaussian (the kernels: gaussian_staged.cu, and
// gaussian_maxpool/gaussian_maxpool_columns_first.cu after maxpool).
#pragma once

#include <utility>

#include "gaussian_columns_first.cuh"
#include "row_ring.cuh"

namespace filterlab::handwritten {

// A warp's band of 128 WORDS columns as its ring holds a row: 16 columns of
// halo either side (the copy's 16-byte units; the blur reads 2 of them).
template <int WORDS>
__host__ __device__ constexpr int staged_row_bytes() {
    return 32 * 4 * WORDS + 32;
}

// Row `row` (the ring's slot, the segment's first column `origin`) of the
// strip of 4 WORDS pixels at x0: what load_strip_row reads from global memory.
template <int WORDS, bool CLAMP>
__device__ __forceinline__ void read_staged_row(const uint8_t *row, const Plane &p, int origin, int x0, int lane,
                                                const HaloSource &halo, uint32_t (&mid)[WORDS], uint32_t &side,
                                                uint32_t &edge) {
    const uint8_t *at = row + (x0 - origin);
    if (!CLAMP || x0 < p.width) {
        if constexpr (WORDS == 4) {
            const uint4 w = *reinterpret_cast<const uint4 *>(at);
            mid[0] = w.x, mid[1] = w.y, mid[2] = w.z, mid[3] = w.w;
        } else {
            const uint2 w = *reinterpret_cast<const uint2 *>(at);
            mid[0] = w.x, mid[1] = w.y;
        }
    } else {
#pragma unroll
        for (int j = 0; j < WORDS; j++) mid[j] = 0;
    }
    side = 0;
    if constexpr (CLAMP) {
        // Only lanes 0 and 31 use a side word, and the last column lies in
        // the segment whenever a strip of the warp reaches it.
        if (lane == 0 || lane == 31) side = *reinterpret_cast<const uint32_t *>(row + (halo.offset - origin));
        edge = p.width - 1 - origin < staged_row_bytes<WORDS>() ? row[p.width - 1 - origin] : 0;
    } else {
        if (lane == 0) side = *reinterpret_cast<const uint32_t *>(at - 4);
        if (lane == 31) side = *reinterpret_cast<const uint32_t *>(at + 4 * WORDS);
    }
}

// Rows travel in groups of 5, the window's height: row r of a strip is row
// r % 5 of its group and takes the window's place r % 5, so that in a loop
// unrolled over a group every place is known at compile time and the window
// never moves.
constexpr int kStagedGroup = 5;

template <int WORDS, int SLOTS>
using StagedRing = RowRing<SLOTS, kStagedGroup, staged_row_bytes<WORDS>()>;

// Blurs output rows top .. top + rows - 1 of the strip of 4 WORDS pixels at
// x0 and calls emit(y, sums) for each (sums as row_sums gives them). The
// whole warp calls it (shuffles), with lane-consecutive strips of one band,
// whose segment starts at column `origin`; CLAMP as blur_columns says.
template <int WORDS, int SLOTS, bool CLAMP, bool IDENTITY, typename Emit>
__device__ inline void blur_staged(const StagedRing<WORDS, SLOTS> &ring, const Plane &p, int origin, int x0, int top,
                                   int rows, int lane, const ColumnWeights &k, Emit &&emit) {
    constexpr int kPitch = staged_row_bytes<WORDS>();
    const HaloSource halo = halo_source(x0, 4 * WORDS, p.width, lane);
    const uint2 clamp = CLAMP ? clamp_selectors<WORDS>(x0, p.width) : make_uint2(0, 0);
    const uint32_t selector = CLAMP ? halo.selector : lane ? 0x4140u : 0x4342u;  // lane 31: bytes 0, 1; lane 0: 2, 3
    const int begin = max(origin, 0), end = min(origin + kPitch, (p.width + 15) & ~15);
    const int count = rows + 4;  // input rows top - 2 .. top + rows + 1
    for (int g = 0; g < SLOTS && g * kStagedGroup < count; g++)
        ring.fetch(g, p, top - 2 + g * kStagedGroup, origin, begin, end, lane);
    RingCursor<SLOTS> at;
    uint32_t win[5][2 * WORDS], outer_win[5];  // the window's rows by place; lane 0's or 31's outer pair
    for (int g = 0; g * kStagedGroup < count; g++) {
        const uint8_t *group = ring.wait(at.slot, at.phase);
        auto row = [&]<int I>(std::integral_constant<int, I>) {  // row I of the group, window place I
            const int r = g * kStagedGroup + I;
            if (r >= count) return;  // the same for the whole warp
            uint32_t mid[WORDS], side, edge = 0;
            read_staged_row<WORDS, CLAMP>(group + I * kPitch, p, origin, x0, lane, halo, mid, side, edge);
            if (I == kStagedGroup - 1 && (g + SLOTS) * kStagedGroup < count)  // the group is read: refill its slot
                ring.fetch(at.slot, p, top - 2 + (g + SLOTS) * kStagedGroup, origin, begin, end, lane);
            spread_row<WORDS, CLAMP>(mid, edge, side, clamp, selector, win[I], outer_win[I]);
            if (r < 4) return;
            uint32_t sums[4 * WORDS];
            window_sums<WORDS, IDENTITY, (I + 1) % 5>(win, outer_win, lane, k, sums);  // rows r - 4 .. r
            emit(top + r - 4, sums);
        };
        [&]<int... I>(std::integer_sequence<int, I...>) {
            (row(std::integral_constant<int, I>{}), ...);
        }(std::make_integer_sequence<int, kStagedGroup>{});
        at.next();
    }
}

// The segment's first column and the lane's strip's (origin, x0) in the
// warp's band `band` (counted in bands of 128 WORDS columns).
template <int WORDS>
__device__ inline int2 staged_strip(int band, int lane) {
    return make_int2(band * 128 * WORDS - 16, band * 128 * WORDS + 4 * WORDS * lane);
}

}  // namespace filterlab::handwritten
