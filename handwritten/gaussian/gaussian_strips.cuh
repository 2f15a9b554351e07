// The engine of our best Gaussian kernels: a thread blurs a 16-pixel column
// strip over ROWS rows. Each input row is read once with a 16-byte load (the
// 2-pixel halo comes from the neighbouring lanes by shuffles, see
// strip_words.cuh) and filtered horizontally in packed arithmetic, two pixels
// per 32-bit register: w_-2..w_2 sum to 256, so a row pass is at most
// 256 * 255 = 65280 and fits a 16-bit lane. The last five row passes stay in
// registers; the vertical pass takes 32 bits per pixel (up to 255 * 65536)
// and is computed for two pixels at once from one packed product (below).
// The result is the contract's (sum + 32768) >> 16, bit for bit.
#pragma once

#include "reference.h"
#include "registry.h"
#include "strip_words.cuh"

namespace filterlab::handwritten {

struct GaussianWeights {
    uint32_t w0, w1, w2;  // the centre, +-1 and +-2 weights
};

// The horizontal pass of one row's 16 pixels: even[j] holds pixels 4j and
// 4j+2 in its low and high 16 bits, odd[j] pixels 4j+1 and 4j+3.
struct RowPass {
    uint32_t even[4], odd[4];
};

inline GaussianWeights strip_weights(const ParamValues &params) {
    const auto w = reference::gaussian_weights(params.at("sigma"));
    return {static_cast<uint32_t>(w[2]), static_cast<uint32_t>(w[1]), static_cast<uint32_t>(w[0])};
}

constexpr uint32_t kByteLanes = 0x00ff00ffu;

__device__ inline RowPass row_pass(const uint32_t (&w)[6], GaussianWeights k) {
    RowPass r;
#pragma unroll
    for (int j = 0; j < 4; j++) {
        const uint32_t a = w[j + 1];
        // Pairs of pixels two apart, one per 16-bit lane (named by the offset
        // of their low pixel from 4j).
        const uint32_t m2 = __funnelshift_l(w[j], a, 16) & kByteLanes;  // 4j-2, 4j
        const uint32_t m1 = __funnelshift_l(w[j], a, 8) & kByteLanes;   // 4j-1, 4j+1
        const uint32_t p0 = a & kByteLanes;                             // 4j,   4j+2
        const uint32_t p1 = (a >> 8) & kByteLanes;                      // 4j+1, 4j+3
        const uint32_t p2 = __funnelshift_r(a, w[j + 2], 16) & kByteLanes;  // 4j+2, 4j+4
        const uint32_t p3 = __funnelshift_r(a, w[j + 2], 24) & kByteLanes;  // 4j+3, 4j+5
        r.even[j] = k.w0 * p0 + k.w1 * (m1 + p1) + k.w2 * (m2 + p2);
        r.odd[j] = k.w0 * p1 + k.w1 * (p0 + p2) + k.w2 * (m1 + p3);
    }
    return r;
}

// The vertical pass of two pixels packed in 16-bit lanes, rows y-2..y+2 in
// h[0..4], each result plus the rounding 32768. The high lanes are summed on
// their own; the low lanes' sum is what the packed 32-bit sum (mod 2^32)
// leaves after taking the high lanes' sum times 65536 away — exact, because
// each lane's true sum is below 2^24.
__device__ inline void column_pass(uint32_t h0, uint32_t h1, uint32_t h2, uint32_t h3, uint32_t h4,
                                   GaussianWeights k, uint32_t &lo, uint32_t &hi) {
    const uint32_t packed = k.w0 * h2 + k.w1 * (h1 + h3) + k.w2 * (h0 + h4);
    const uint32_t high = k.w0 * (h2 >> 16) + k.w1 * ((h1 >> 16) + (h3 >> 16)) + k.w2 * ((h0 >> 16) + (h4 >> 16));
    lo = packed - (high << 16) + 32768u;
    hi = high + 32768u;
}

// Four blurred pixels (bytes 4j..4j+3 of a word) from the five row passes.
__device__ inline uint32_t blurred_word(const RowPass (&win)[5], int j, GaussianWeights k) {
    uint32_t e_lo, e_hi, o_lo, o_hi;
    column_pass(win[0].even[j], win[1].even[j], win[2].even[j], win[3].even[j], win[4].even[j], k, e_lo, e_hi);
    column_pass(win[0].odd[j], win[1].odd[j], win[2].odd[j], win[3].odd[j], win[4].odd[j], k, o_lo, o_hi);
    // (sum + 32768) >> 16 is byte 2 of each (all below 2^24).
    return __byte_perm(__byte_perm(e_lo, o_lo, 0x0062), __byte_perm(e_hi, o_hi, 0x0062), 0x5410);
}

// Blurs rows y0..y0+ROWS-1 of the strip at x0 and calls emit(y, words) for
// each row inside the image (words: its 16 blurred pixels, byte k of word j
// the pixel x0+4j+k; meaningless where x0 >= width). Every lane of the warp
// must call this (it shuffles), whatever its x0.
// AHEAD: how many rows' loads are in flight ahead of the row being filtered
// (more hides latency, costs 4 registers a row).
template <int ROWS, int AHEAD, typename Emit>
__device__ inline void blur_strip(const Plane &p, int x0, int y0, int lane, GaussianWeights k, Emit &&emit) {
    auto row = [&](int y) { return p.in + clamp_index(y, p.height - 1) * p.in_pitch; };
    constexpr int kInputRows = ROWS + 4;
    uint4 mid[kInputRows];  // indices are constants after unrolling: registers
#pragma unroll
    for (int r = 0; r < AHEAD && r < kInputRows; r++) mid[r] = load_strip(row(y0 + r - 2), x0, p.width);
    RowPass win[5];
#pragma unroll
    for (int r = 0; r < kInputRows; r++) {
        if (r + AHEAD < kInputRows) mid[r + AHEAD] = load_strip(row(y0 + r + AHEAD - 2), x0, p.width);
#pragma unroll
        for (int i = 0; i < 4; i++) win[i] = win[i + 1];
        win[4] = row_pass(row_words(row(y0 + r - 2), mid[r], x0, p.width, lane).w, k);
        if (r < 4 || y0 + r - 4 >= p.height) continue;
        uint32_t words[4];
#pragma unroll
        for (int j = 0; j < 4; j++) words[j] = blurred_word(win, j, k);
        emit(y0 + r - 4, words);
    }
}

}  // namespace filterlab::handwritten
