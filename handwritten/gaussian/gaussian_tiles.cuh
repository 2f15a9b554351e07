// The Gaussian's columns-first arithmetic (gaussian_columns_first.cuh) on a
// tile in shared memory (tile_pipeline.cuh), for the tiled kernels: the blur
// alone (gaussian_tiles.cu) and the blur pooled (gaussian_maxpool_tiles.cu).
// A thread blurs 16 columns over ROWS_EACH rows of the tile: each of its
// ROWS_EACH + 4 input rows is ten pairs of pixels in 16-bit lanes
// (tiles::row_pairs: its columns and the two beside them on each side); the
// last five rows' pairs stay in registers.
// Gold: reference::gaussian.
#pragma once

#include "gaussian_columns_first.cuh"
#include "tile_pipeline.cuh"

namespace filterlab::handwritten {

// A Gaussian tile's filter for tiles::tiles_kernel; STORE takes each blurred
// row's sums (byte 2 of each: the output pixel), with the row's index in the
// thread's strip (a constant after unrolling).
template <typename SHAPE, int ROWS_EACH, bool IDENTITY, typename STORE>
struct BlurTile {
    using Shape = SHAPE;
    using Args = ColumnWeights;
    static_assert(SHAPE::kHalo == 2, "the 5x5 window");
    static constexpr int kAcross = SHAPE::kColumns / 16;  // threads across a tile
    static_assert(SHAPE::kThreads * ROWS_EACH == kAcross * SHAPE::kRows, "a thread a strip of the tile");

    __device__ static void filter(const uint8_t *stage, const Plane &p, const ColumnWeights &k, tiles::TileOrigin o,
                                  const tiles::TileGrid &g) {
        const int cx = static_cast<int>(threadIdx.x) % kAcross, gy = static_cast<int>(threadIdx.x) / kAcross;
        const int x = o.x0 + 16 * cx, y0 = o.y0 + gy * ROWS_EACH;
        if (x >= g.columns || y0 >= g.rows) return;
        const tiles::Strip strip = tiles::strip<SHAPE>(stage, cx, gy * ROWS_EACH);  // row r: image row y0 - 2 + r
        STORE store;
        uint32_t win[5][10] = {};  // rows y-2..y+2: pairs (-2, -1), (0, 1) .. (14, 15), (16, 17) of the strip
#pragma unroll
        for (int r = 0; r < ROWS_EACH + 4; r++) {
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 10; j++) win[i][j] = win[i + 1][j];
            tiles::row_pairs<SHAPE>(strip, r, win[4]);
            if (r < 4) continue;
            const int y = y0 + r - 4;
            if (y >= g.rows) break;
            uint32_t v[10], own[8], sums[16];
#pragma unroll
            for (int j = 0; j < 10; j++) v[j] = column_taps(win[0][j], win[1][j], win[2][j], win[3][j], win[4][j], k);
#pragma unroll
            for (int j = 0; j < 8; j++) own[j] = v[j + 1];
            row_sums<4, IDENTITY>(own, v[0], v[9], k, sums);
            store.row(p, g, x, y, r - 4, sums);
        }
    }
};

// The blurred row's 16 pixels at x; STREAM: stored evict-first (the output
// is not read again, the input's halo rows are).
template <bool STREAM>
struct StoreBlurred {
    __device__ void row(const Plane &p, const tiles::TileGrid &, int x, int y, int, const uint32_t (&s)[16]) {
        const uint4 v = make_uint4(pack_sums(s[0], s[1], s[2], s[3]), pack_sums(s[4], s[5], s[6], s[7]),
                                   pack_sums(s[8], s[9], s[10], s[11]), pack_sums(s[12], s[13], s[14], s[15]));
        uint8_t *dst = p.out + x + row_offset(y, p.out_pitch);
        if (x + 16 <= p.width && STREAM)
            __stcs(reinterpret_cast<uint4 *>(dst), v);
        else if (x + 16 <= p.width)
            *reinterpret_cast<uint4 *>(dst) = v;
        else
            store_bytes(dst, p.width - x, v);
    }
};

}  // namespace filterlab::handwritten
