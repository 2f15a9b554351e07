// The Gaussian columns first (gaussian_columns_first.cuh's arithmetic) on
// tiles that the copy engine brings into shared memory (tile_pipeline.cuh):
// hw_columns_first waits on its loads with 3 rows of 8 bytes in flight a
// thread; here a block's next tiles are in flight while it filters one, and
// the filter reads shared memory, clamped already, with no halo shuffle and
// no edge branch. A thread blurs 16 columns over ROWS_EACH rows of a tile.
// Gold: reference::gaussian.
#include "gaussian_columns_first.cuh"
#include "gaussian_tiles.cuh"
#include "registry.h"

namespace filterlab::handwritten {
namespace {

using namespace tiles;

template <typename SHAPE, int ROWS_EACH, bool STREAM = false>
void run(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    const ColumnWeights k = column_weights(params);
    for_each_plane(in, out, "gaussian tiles_kernel", [&](const Plane &p) {
        if (k.identity)
            launch_tiles<BlurTile<SHAPE, ROWS_EACH, true, StoreBlurred<STREAM>>>(p, k, p.width, p.height);
        else
            launch_tiles<BlurTile<SHAPE, ROWS_EACH, false, StoreBlurred<STREAM>>>(p, k, p.width, p.height);
    });
}

// Why 256 x 64 tiles, 8 rows a thread, 3 in flight a block of 4 warps: a
// tile's copies bring 19 KB; 3 stages of them keep up to 40 KB in flight a
// block, 3 blocks an SM. 8 rows a thread re-read 4 halo rows for 8 outputs.
const VariantRegistration tiles_256x64{with_algorithm(
    {"gaussian", "hw_tiles", Backend::cuda, Kind::handwritten, {}, run<TileShape<256, 64, 2, 3, 128>, 8>},
    "columns_first")};
const VariantRegistration tiles_256x56{with_algorithm(
    {"gaussian", "hw_tiles56", Backend::cuda, Kind::handwritten, {}, run<TileShape<256, 56, 2, 3, 128>, 7>},
    "columns_first")};
const VariantRegistration tiles_256x56_cs{with_algorithm(
    {"gaussian", "hw_tiles56_cs", Backend::cuda, Kind::handwritten, {}, run<TileShape<256, 56, 2, 3, 128>, 7, true>},
    "columns_first")};
const VariantRegistration tiles_256x128_2{with_algorithm(
    {"gaussian", "hw_tiles_s2", Backend::cuda, Kind::handwritten, {}, run<TileShape<256, 128, 2, 2, 256>, 8>},
    "columns_first")};
const VariantRegistration tiles_256x128_3{with_algorithm(
    {"gaussian", "hw_tiles_s3", Backend::cuda, Kind::handwritten, {}, run<TileShape<256, 128, 2, 3, 256>, 8>},
    "columns_first")};
const VariantRegistration tiles_256x128_16{with_algorithm(
    {"gaussian", "hw_tiles_r16", Backend::cuda, Kind::handwritten, {}, run<TileShape<256, 128, 2, 3, 128>, 16>},
    "columns_first")};

}  // namespace
}  // namespace filterlab::handwritten
