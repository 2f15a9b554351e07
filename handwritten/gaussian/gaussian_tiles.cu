// The Gaussian columns first (gaussian_columns_first.cuh's arithmetic) on
// tiles that the copy engine brings into shared memory (tile_pipeline.cuh):
// hw_columns_first waits on its loads with 3 rows of 8 bytes in flight a
// thread; here a block's next tiles are in flight while it filters one, and
// the filter reads shared memory, clamped already, with no halo shuffle and
// no edge branch. A thread blurs 16 columns over ROWS_EACH rows of a tile:
// each of its ROWS_EACH + 4 input rows is ten pairs of pixels in 16-bit lanes
// (tiles::row_pairs: its columns and the two beside them on each side); the
// last five rows' pairs stay in registers. Gold: reference::gaussian.
#include "gaussian_columns_first.cuh"
#include "registry.h"
#include "strip_words.cuh"
#include "tile_pipeline.cuh"

namespace filterlab::handwritten {
namespace {

using namespace tiles;

template <typename SHAPE, int ROWS_EACH, bool IDENTITY>
struct BlurTile {
    using Shape = SHAPE;
    using Args = ColumnWeights;
    static_assert(SHAPE::kHalo == 2, "the 5x5 window");

    __device__ static void filter(const uint8_t *stage, const Plane &p, const ColumnWeights &k, TileOrigin o,
                                  const TileGrid &g) {
        walk_strip<SHAPE, ROWS_EACH>(stage, o, g, [&](const uint32_t (&win)[5][10], int x, int y) {
            uint32_t v[10], own[8], s[16];  // vertical sums of the pairs; the 2-D sums (byte 2: the output)
#pragma unroll
            for (int j = 0; j < 10; j++) v[j] = column_taps(win[0][j], win[1][j], win[2][j], win[3][j], win[4][j], k);
#pragma unroll
            for (int j = 0; j < 8; j++) own[j] = v[j + 1];
            row_sums<4, IDENTITY>(own, v[0], v[9], k, s);
            const uint32_t out[4] = {pack_sums(s[0], s[1], s[2], s[3]), pack_sums(s[4], s[5], s[6], s[7]),
                                     pack_sums(s[8], s[9], s[10], s[11]), pack_sums(s[12], s[13], s[14], s[15])};
            store_strip(p.out + x + row_offset(y, p.out_pitch), x, p.width, out);
        });
    }
};

template <typename SHAPE, int ROWS_EACH>
void run(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    const ColumnWeights k = column_weights(params);
    for_each_plane(in, out, "gaussian tiles_kernel", [&](const Plane &p) {
        if (k.identity)
            launch_tiles<BlurTile<SHAPE, ROWS_EACH, true>>(p, k, p.width, p.height);
        else
            launch_tiles<BlurTile<SHAPE, ROWS_EACH, false>>(p, k, p.width, p.height);
    });
}

// Why 256 x 64 tiles, 8 rows a thread, 3 in flight a block of 4 warps: a
// tile's copies bring 19 KB, and 3 blocks an SM hold 2 tiles each in flight
// while they filter a third; 8 rows a thread re-read 4 halo rows for 8
// outputs; the box's tiles have the same shape.
const VariantRegistration tiles{with_algorithm(
    {"gaussian", "hw_tiles", Backend::cuda, Kind::handwritten, {}, run<TileShape<256, 64, 2, 3, 128>, 8>},
    "columns_first")};

}  // namespace
}  // namespace filterlab::handwritten
