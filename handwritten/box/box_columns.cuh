// The box mean's column sums as a warp keeps them, shared by the running-sums
// kernels (box_running_sums.cu reads its rows from global memory,
// box_staged_rows.cu from a ring in shared memory): a lane owns 16 columns
// and holds their vertical (2r+1)-row sums two to a register in 16-bit lanes
// (31 * 255 fits); the horizontal window takes the neighbouring lanes' sums by
// warp shuffles (kBoxMaxRadius < 16), so lanes 0 and 31 are halo lanes, and a
// warp's band is 30 * 16 = 480 output columns; each lane slides a 32-bit sum
// along its 16 outputs and divides by n = (2r+1)^2 with one multiply-high
// (Magic). Gold: reference::box.
#pragma once

#include <cstdint>

#include "contract_ranges.h"
#include "plane.h"

namespace filterlab::handwritten::box_columns {

constexpr int kBand = 30 * 16;  // output columns per warp
static_assert(kBoxMaxRadius < 16, "a window's columns past the lane's 16 must lie in the next lane's");

// floor(s / n) = umulhi(s, M) with M = ceil(2^32 / n) = (2^32 + e) / n holds
// whenever s * e < 2^32 (the error s * e / (n 2^32) stays below 1/n); the
// largest sum is 255 n + n/2.
template <int R>
struct Magic {
    static constexpr uint32_t n = (2 * R + 1) * (2 * R + 1);
    static constexpr uint64_t m = ((uint64_t{1} << 32) + n - 1) / n;
    static_assert((255ull * n + n / 2) * (m * n - (uint64_t{1} << 32)) < (uint64_t{1} << 32));
};

// The 16 bytes v at x0 with every byte at or past `width` replaced by `edge`
// (four copies of the last column's byte).
__device__ inline uint4 clamp_straddle(uint4 v, int x0, int width, uint32_t edge) {
    uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int k = 0; k < 4; k++) {
        const int inside = width - x0 - 4 * k;  // bytes of word k inside the image
        const uint32_t keep = inside >= 4 ? ~0u : (inside <= 0 ? 0u : (1u << (8 * inside)) - 1);
        w[k] = (w[k] & keep) | (edge & ~keep);
    }
    return make_uint4(w[0], w[1], w[2], w[3]);
}

// The 16 bytes x0..x0+15 of a row, clamped as FILTERS.md says. Chunks past
// width + 16 feed no output: zeros.
__device__ inline uint4 load_chunk(const uint8_t *row, int x0, int width) {
    if (x0 >= 0 && x0 + 16 <= width) return __ldg(reinterpret_cast<const uint4 *>(row + x0));
    if (x0 >= width + 16) return make_uint4(0, 0, 0, 0);
    const uint32_t edge = row[x0 < 0 ? 0 : width - 1] * 0x01010101u;
    if (x0 < 0 || x0 >= width) return make_uint4(edge, edge, edge, edge);
    // Straddles the right edge. Rows are padded to 64 bytes, so the 16 bytes
    // lie inside the allocation.
    return clamp_straddle(__ldg(reinterpret_cast<const uint4 *>(row + x0)), x0, width, edge);
}

// A lane's 16 column sums: e[j] holds columns 4j (low half) and 4j+2 (high
// half), o[j] columns 4j+1 and 4j+3.
struct Cols {
    uint32_t e[4], o[4];
};

__device__ inline uint32_t evens(uint32_t w) { return __byte_perm(w, 0, 0x4240); }  // bytes 0, 2
__device__ inline uint32_t odds(uint32_t w) { return __byte_perm(w, 0, 0x4341); }   // bytes 1, 3

__device__ inline void add_row(Cols &c, uint4 v) {
    const uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int j = 0; j < 4; j++) {
        c.e[j] += evens(w[j]);
        c.o[j] += odds(w[j]);
    }
}

// Adds row `in` and drops row `out`. Every 16-bit lane ends in 0..7905, so the
// 32-bit arithmetic is exact per lane.
__device__ inline void slide_rows(Cols &c, uint4 in, uint4 out) {
    const uint32_t a[4] = {in.x, in.y, in.z, in.w}, b[4] = {out.x, out.y, out.z, out.w};
#pragma unroll
    for (int j = 0; j < 4; j++) {
        c.e[j] += evens(a[j]) - evens(b[j]);
        c.o[j] += odds(a[j]) - odds(b[j]);
    }
}

// Column sum k (-16..31; a constant after unrolling) of the lane: k < 0 from
// the left neighbour, k >= 16 from the right one.
__device__ inline uint32_t column(const Cols &left, const Cols &own, const Cols &right, int k) {
    const Cols &c = k < 0 ? left : (k < 16 ? own : right);
    const int lc = k & 15;
    const uint32_t w = lc & 1 ? c.o[lc >> 2] : c.e[lc >> 2];
    // w >> 16 as a multiply-high: the multiply pipe has room, the ALU has not.
    return lc & 2 ? __umulhi(w, 0x10000u) : w & 0xffffu;
}

// The lane's 16 means of one row, packed 4 per word. All lanes must call it
// (shuffles).
template <int R>
__device__ inline uint4 means(const Cols &own) {
    constexpr unsigned kAll = 0xffffffffu;
    // Only the words holding columns within R of the lane are moved.
    Cols left = {}, right = {};
#pragma unroll
    for (int j = 0; j < 4; j++) {
        if (4 * j + 2 >= 16 - R) left.e[j] = __shfl_up_sync(kAll, own.e[j], 1);
        if (4 * j + 3 >= 16 - R) left.o[j] = __shfl_up_sync(kAll, own.o[j], 1);
        if (4 * j <= R - 1) right.e[j] = __shfl_down_sync(kAll, own.e[j], 1);
        if (4 * j + 1 <= R - 1) right.o[j] = __shfl_down_sync(kAll, own.o[j], 1);
    }
    // The window of output 0, columns -R..R. The slide unpacks columns -R..14-R
    // and R+1..R+15 anyway; the rest (own columns 15-R..R when R >= 8) are
    // summed two per register first (at most 8 words: 8 * 7905 fits 16 bits).
    uint32_t sum = Magic<R>::n / 2, packed = 0;
#pragma unroll
    for (int k = -R; k <= R && k <= 14 - R; k++) sum += column(left, own, right, k);
#pragma unroll
    for (int j = 0; j < 4; j++) {
#pragma unroll
        for (int p = 0; p < 2; p++) {
            const int a = 4 * j + p, b = a + 2;  // the word's two columns
            const bool in_a = a >= 15 - R && a <= R, in_b = b >= 15 - R && b <= R;
            const uint32_t w = p ? own.o[j] : own.e[j];
            if (in_a && in_b) packed += w;
            else if (in_a) sum += w & 0xffffu;
            else if (in_b) sum += w >> 16;
        }
    }
    sum += (packed & 0xffffu) + (packed >> 16);
    uint32_t q[16];
    q[0] = __umulhi(sum, static_cast<uint32_t>(Magic<R>::m));
#pragma unroll
    for (int i = 1; i < 16; i++) {
        sum += column(left, own, right, i + R) - column(left, own, right, i - 1 - R);
        q[i] = __umulhi(sum, static_cast<uint32_t>(Magic<R>::m));
    }
    uint32_t out[4];
#pragma unroll
    for (int k = 0; k < 4; k++)
        out[k] = (q[4 * k] + q[4 * k + 1] * 0x100u) + (q[4 * k + 2] + q[4 * k + 3] * 0x100u) * 0x10000u;  // q < 256
    return make_uint4(out[0], out[1], out[2], out[3]);
}

}  // namespace filterlab::handwritten::box_columns
