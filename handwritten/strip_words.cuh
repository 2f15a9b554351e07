// Loading a thread's 16-pixel strip of a row with its halo, for kernels that
// work on 32-bit words of 4 pixels. Lane i of a warp owns pixels x0..x0+15,
// x0 = 16 * (its strip index); the halo words come from the neighbouring
// lanes by shuffles (lanes 0 and 31 load their own), and the image edges are
// clamped in registers, as FILTERS.md's border rule says. Halos of up to 4
// pixels are covered.
#pragma once

#include "plane.h"

namespace filterlab::handwritten {

// One row's words: w[0] = pixels x0-4..x0-1, w[1..4] = x0..x0+15, w[5] = x0+16..x0+19
// (byte k of a word is its k-th pixel).
struct RowWords {
    uint32_t w[6];
};

// The 16 bytes at x0, or zeros past the image. Rows are padded to 64 bytes,
// so a strip that starts inside the image is inside the allocation.
__device__ inline uint4 load_strip(const uint8_t *row, int x0, int width) {
    return x0 < width ? *reinterpret_cast<const uint4 *>(row + x0) : make_uint4(0, 0, 0, 0);
}

// Replaces every byte of `word` (pixels x .. x+3) at or beyond `width` by `edge`.
__device__ inline uint32_t clamp_right(uint32_t word, int x, int width, uint32_t edge) {
#pragma unroll
    for (int b = 0; b < 4; b++)
        if (x + b >= width) word = (word & ~(0xffu << (8 * b))) | (edge << (8 * b));
    return word;
}

// Every lane of the warp must call this (it shuffles).
__device__ inline RowWords row_words(const uint8_t *row, uint4 mid, int x0, int width, int lane) {
    RowWords r{{__shfl_up_sync(0xffffffffu, mid.w, 1), mid.x, mid.y, mid.z, mid.w,
                __shfl_down_sync(0xffffffffu, mid.x, 1)}};
    if (lane == 0) r.w[0] = x0 >= 16 ? *reinterpret_cast<const uint32_t *>(row + x0 - 4) : 0;
    if (lane == 31 && x0 + 16 < width) r.w[5] = *reinterpret_cast<const uint32_t *>(row + x0 + 16);
    if (x0 == 0) r.w[0] = (mid.x & 0xffu) * 0x01010101u;  // x < 0 reads x = 0
    if (x0 + 20 > width && x0 < width) {                   // x >= width reads x = width - 1
        const uint32_t edge = row[width - 1];
#pragma unroll
        for (int k = 1; k < 6; k++) r.w[k] = clamp_right(r.w[k], x0 + 4 * (k - 1), width, edge);
    }
    return r;
}

// row * pitch from 32-bit unsigned factors: one IMAD.WIDE.U32 (row >= 0, and
// a pitch is far below 2^32; the signed 64-bit product takes three more).
__device__ inline uint64_t row_offset(int row, std::ptrdiff_t pitch) {
    return static_cast<uint64_t>(static_cast<uint32_t>(row)) * static_cast<uint32_t>(pitch);
}

// Four output pixels (byte 2 of each sum) as one word.
__device__ inline uint32_t pack_sums(uint32_t s0, uint32_t s1, uint32_t s2, uint32_t s3) {
    return __byte_perm(__byte_perm(s0, s1, 0x0062), __byte_perm(s2, s3, 0x0062), 0x5410);
}

// Stores the first n bytes of v (the strip that the right edge cuts): a
// rolled loop, as unrolled such a rare store would cost registers and code.
__device__ inline void store_bytes(uint8_t *dst, int n, uint4 v) {
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        dst[i] = static_cast<uint8_t>(v.x);
        v = make_uint4(__funnelshift_r(v.x, v.y, 8), __funnelshift_r(v.y, v.z, 8), __funnelshift_r(v.z, v.w, 8),
                       v.w >> 8);
    }
}

// Stores 16 output pixels at x0 (fewer at the right edge).
__device__ inline void store_strip(uint8_t *dst, int x0, int width, const uint32_t (&out)[4]) {
    const uint4 v = make_uint4(out[0], out[1], out[2], out[3]);
    if (x0 + 16 <= width)
        *reinterpret_cast<uint4 *>(dst) = v;
    else
        store_bytes(dst, width - x0, v);
}

}  // namespace filterlab::handwritten
