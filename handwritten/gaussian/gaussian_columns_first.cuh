// The columns-first engine of our Gaussian kernels: a thread blurs a strip of
// 4 WORDS pixels (8 or 16) over ROWS rows, the vertical pass first, in packed
// 16-bit lanes, then the horizontal pass with the two-way dot product (dp2a).
// Gold: reference::gaussian (the kernels: gaussian_columns_first.cu, and
// gaussian_maxpool/gaussian_maxpool_columns_first.cu after maxpool).
//
// Why it is cheaper than rows first (gaussian_strips.cuh, 25 instructions a
// pixel measured): a vertical sum of bytes, w0 c + w1 (a + b) + w2 (d + e),
// is at most 255 * 256 and fits a 16-bit lane, and every step of it is a ring
// operation (add, multiply by a constant), so two pixels share each
// instruction and only the final lanes need to lie in 0..65535 (pair sums
// may carry across lanes meanwhile). The pass leaves the vertical sums of
// adjacent pixels paired in 16-bit lanes, exactly what dp2a takes: two 16-bit
// lanes times two weight bytes plus a 32-bit accumulator, in one instruction
// (an IMAD-like one, on the FMA pipe). A pixel costs about 7 instructions of
// arithmetic: 1/2 PRMT spreading its row's bytes into lanes (once a row, kept
// for the five output rows that use it), 5/2 for the vertical taps (two IADD3
// and three IMAD for two pixels), 3 dp2a for the five horizontal taps, 3/4
// PRMT packing the output bytes; the rounding 32768 rides along as 128 added
// to every vertical sum (the horizontal weights sum to 256). With the halo,
// loads, stores, addresses and the 4 rows loaded twice, about 11 a pixel
// (SASS, 8-pixel strips of 16 rows). dp2a's weights are bytes: a centre
// weight of 256 (tiny sigma, weights [0, 0, 256, 0, 0]: the blur copies)
// takes the IDENTITY path.
//
// Halo: the two columns either side of a strip are vertical sums that the
// neighbouring lanes hold: shuffles bring them; lanes 0 and 31 compute theirs
// from a 4-byte load beside the strip. Warps near the left or right edge of
// the image (CLAMP) clamp those loads and their own bytes past the last column
// (FILTERS.md's border rule); rows are clamped as they are loaded. The result
// is the contract's (sum + 32768) >> 16, bit for bit.
#pragma once

#include "gaussian_strips.cuh"

namespace filterlab::handwritten {

// The weights as the two passes take them: the vertical multipliers, and the
// horizontal ones as dp2a weight bytes.
struct ColumnWeights {
    uint32_t w0, w1, w2;
    uint32_t near, far, mid;  // bytes [w2 w1 w0 w1], [w2 0 0 w2], [w1 w0 w1 w2]
    bool identity;            // w0 = 256: the blur copies its input
};

inline ColumnWeights column_weights(const ParamValues &params) {
    const GaussianWeights g = strip_weights(params);
    const uint32_t w0 = g.w0 & 0xffu;  // 256 only with w1 = w2 = 0 (identity)
    return {g.w0, g.w1, g.w2, g.w2 | g.w1 << 8 | w0 << 16 | g.w1 << 24, g.w2 | g.w2 << 24,
            g.w1 | w0 << 8 | g.w1 << 16 | g.w2 << 24, g.w0 > 255};
}

// The vertical pass of two adjacent pixels, rows y-2..y+2 in d, a, c, b, e
// (bytes in 16-bit lanes): w0 c + w1 (a + b) + w2 (d + e) + 128 per lane.
__device__ inline uint32_t column_taps(uint32_t d, uint32_t a, uint32_t c, uint32_t b, uint32_t e,
                                       const ColumnWeights &k) {
    return k.w2 * (d + e) + (k.w1 * (a + b) + (k.w0 * c + 0x00800080u));
}

// For warps near an edge (CLAMP): where lanes 0 and 31 read the two outer
// columns of their halo (a 4-byte word and the PRMT selector that spreads two
// of its bytes into 16-bit lanes), clamped at the left and right edges; the
// other lanes load a word too (no branch), and ignore it.
struct HaloSource {
    int offset;
    uint32_t selector;
};

__device__ inline HaloSource halo_source(int x0, int strip, int width, int lane) {
    if (lane == 0) return x0 == 0 ? HaloSource{0, 0x4040u} : HaloSource{x0 - 4, 0x4342u};
    if (lane != 31) return {0, 0x4140u};
    if (x0 + strip + 1 < width) return {x0 + strip, 0x4140u};
    if (x0 + strip < width) return {x0 + strip, 0x4040u};  // x0 + strip is the last column
    const uint32_t b = (width - 1) & 3;
    return {(width - 1) & ~3, 0x4040u | b | b << 8};  // the last column, twice
}

// For warps reaching past the right edge: the PRMT selector of each word of
// the strip (two to a register, PRMT reads bits 0..15) that keeps its bytes
// inside the image and takes byte 4 (the last column, the second operand)
// for the others: FILTERS.md's clamp rule.
template <int WORDS>
__device__ inline uint2 clamp_selectors(int x0, int width) {
    uint32_t sel[4] = {0, 0, 0, 0};
#pragma unroll
    for (int j = 0; j < WORDS; j++) {
        const uint32_t keep = (1u << 4 * clamp_index(width - x0 - 4 * j, 4)) - 1;  // 4 bits per byte inside
        sel[j] = (0x3210u & keep) | (0x4444u & ~keep & 0xffffu);
    }
    return make_uint2(sel[0] | sel[1] << 16, sel[2] | sel[3] << 16);
}

// The horizontal pass of one row: sums[i] for pixel x0 + i is the 2-D sum
// plus 32768, below 2^24, so the output is its byte 2 (sums[i] >> 16).
// v[i]: the vertical sums of pixels 2i, 2i+1; left, right: of -2, -1 and
// 4 WORDS, 4 WORDS + 1.
template <int WORDS, bool IDENTITY>
__device__ inline void row_sums(const uint32_t (&v)[2 * WORDS], uint32_t left, uint32_t right,
                                const ColumnWeights &k, uint32_t (&sums)[4 * WORDS]) {
#pragma unroll
    for (int i = 0; i < 2 * WORDS; i++) {
        const uint32_t l = i == 0 ? left : v[i - 1], c = v[i], r = i == 2 * WORDS - 1 ? right : v[i + 1];
        if constexpr (IDENTITY) {  // 256 v: the sum with weights [0, 0, 256, 0, 0]
            sums[2 * i] = __byte_perm(c, 0, 0x4104);
            sums[2 * i + 1] = __byte_perm(c, 0, 0x4324);
        } else {
            sums[2 * i] = __dp2a_lo(l, k.near, __dp2a_hi(c, k.near, __dp2a_lo(r, k.far, 0u)));
            sums[2 * i + 1] = __dp2a_hi(l, k.far, __dp2a_lo(c, k.mid, __dp2a_hi(r, k.mid, 0u)));
        }
    }
}

// Loads row r of the strip, image row y0 + r - 2 clamped: its words (mid),
// the word beside it (side) and, for CLAMP, the row's last column (edge).
template <int WORDS, bool CLAMP>
__device__ __forceinline__ void load_strip_row(const Plane &p, const uint8_t *strip, const uint8_t *outer,
                                               const uint8_t *last, int x0, int y0, int r, int lane,
                                               uint32_t (&mid)[WORDS], uint32_t &side, uint32_t &edge) {
    // Row y0 + r - 2, clamped (y0 >= 0: only the first two can lie above).
    const int y = y0 + r - 2;
    const uint64_t offset = row_offset(r < 2 ? clamp_index(y, p.height - 1) : min(y, p.height - 1), p.in_pitch);
    // Rows are padded to 64 bytes: a strip that starts inside the image is inside the row.
    const uint8_t *at = strip + offset;
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
    if constexpr (CLAMP) {
        side = *reinterpret_cast<const uint32_t *>(outer + offset);
        edge = last[offset];
    } else {  // neither edge is near: the words beside the strip, two predicated loads
        side = 0;
        if (lane == 0) side = *reinterpret_cast<const uint32_t *>(at - 4);
        if (lane == 31) side = *reinterpret_cast<const uint32_t *>(at + 4 * WORDS);
    }
}

// Moves the window up a row and spreads the loaded row (mid, clamped with
// edge for CLAMP; side for the outer pair) into 16-bit lanes as its last row.
template <int WORDS, bool CLAMP>
__device__ __forceinline__ void push_window_row(const uint32_t (&mid)[WORDS], const uint32_t &edge, uint32_t side,
                                                uint2 clamp, uint32_t selector, uint32_t (&win)[5][2 * WORDS],
                                                uint32_t (&outer_win)[5]) {
#pragma unroll
    for (int i = 0; i < 4; i++) {
        outer_win[i] = outer_win[i + 1];
#pragma unroll
        for (int j = 0; j < 2 * WORDS; j++) win[i][j] = win[i + 1][j];
    }
#pragma unroll
    for (int j = 0; j < WORDS; j++) {
        const uint32_t w = CLAMP ? __byte_perm(mid[j], edge, (j < 2 ? clamp.x : clamp.y) >> (j % 2 * 16)) : mid[j];
        win[4][2 * j] = __byte_perm(w, 0, 0x4140);      // pixels 4j, 4j+1 in 16-bit lanes
        win[4][2 * j + 1] = __byte_perm(w, 0, 0x4342);  // 4j+2, 4j+3
    }
    outer_win[4] = __byte_perm(side, 0, selector);
}

// The sums of the window's middle row: the vertical pass, the halo pairs from
// the neighbouring lanes (lanes 0 and 31: their own outer pair), the horizontal pass.
template <int WORDS, bool IDENTITY>
__device__ __forceinline__ void window_sums(const uint32_t (&win)[5][2 * WORDS], const uint32_t (&outer_win)[5],
                                            int lane, const ColumnWeights &k, uint32_t (&sums)[4 * WORDS]) {
    constexpr int kPairs = 2 * WORDS;
    uint32_t v[kPairs];
#pragma unroll
    for (int j = 0; j < kPairs; j++) v[j] = column_taps(win[0][j], win[1][j], win[2][j], win[3][j], win[4][j], k);
    const uint32_t own = column_taps(outer_win[0], outer_win[1], outer_win[2], outer_win[3], outer_win[4], k);
    uint32_t left = __shfl_up_sync(0xffffffffu, v[kPairs - 1], 1);
    uint32_t right = __shfl_down_sync(0xffffffffu, v[0], 1);
    if (lane == 0) left = own;
    if (lane == 31) right = own;
    row_sums<WORDS, IDENTITY>(v, left, right, k, sums);
}

// Blurs rows y0..y0+ROWS-1 of the strip of 4 WORDS pixels at x0 and calls
// emit(y, sums) for those below `rows` (sums as row_sums gives them,
// meaningless where x0 + i >= width). Every lane of the warp must call this
// (it shuffles), with the same y0 (>= 0) and lane-consecutive strips; CLAMP
// must be set for a warp at the left edge (x0 = 0 in lane 0) or near the
// right one (a strip or its 2-pixel halo reaching past the last column).
// AHEAD: how many rows' loads are in flight ahead of the row being filtered,
// once the first output row is under way (each costs WORDS + 1 registers).
template <int WORDS, int ROWS, int AHEAD, bool CLAMP, bool IDENTITY, typename Emit>
__device__ inline void blur_columns(const Plane &p, int x0, int y0, int rows, int lane, const ColumnWeights &k,
                                    Emit &&emit) {
    static_assert(WORDS == 2 || WORDS == 4, "8- or 16-pixel strips: 8- or 16-byte loads");
    constexpr int kInputRows = ROWS + 4, kPairs = 2 * WORDS;
    const HaloSource halo = halo_source(x0, 4 * WORDS, p.width, lane);
    const uint2 clamp = CLAMP ? clamp_selectors<WORDS>(x0, p.width) : make_uint2(0, 0);
    const uint8_t *strip = p.in + x0, *outer = p.in + halo.offset, *last = p.in + p.width - 1;
    uint32_t mid[kInputRows][WORDS], side[kInputRows], edge[kInputRows];  // constant indices: registers
    const uint32_t selector = CLAMP ? halo.selector : lane ? 0x4140u : 0x4342u;  // lane 31: bytes 0, 1; lane 0: 2, 3
    auto load = [&](int r) {
        load_strip_row<WORDS, CLAMP>(p, strip, outer, last, x0, y0, r, lane, mid[r], side[r], edge[r]);
    };
#pragma unroll
    for (int r = 0; r < kInputRows && r < AHEAD + 4; r++) load(r);  // the first output needs 5 rows
    uint32_t win[5][kPairs], outer_win[5];  // rows y-2..y+2 split into pairs; lane 0's or 31's outer pair
#pragma unroll
    for (int r = 0; r < kInputRows; r++) {
        if (r >= 4 && r + AHEAD < kInputRows) load(r + AHEAD);
        push_window_row<WORDS, CLAMP>(mid[r], edge[r], side[r], clamp, selector, win, outer_win);
        if (r < 4) continue;
        uint32_t sums[4 * WORDS];
        window_sums<WORDS, IDENTITY>(win, outer_win, lane, k, sums);
        if (y0 + r - 4 < rows) emit(y0 + r - 4, sums);
    }
}

}  // namespace filterlab::handwritten
