// Gaussian then 2x2 max pooling on tiles that the copy engine brings into
// shared memory: gaussian/gaussian_tiles.cuh's blur, each pair of a thread's
// blurred rows pooled in registers as hw_fused_columns_first pools them (the
// 32-bit sums compared before they become bytes), one 8-byte store a pair.
// Gold: reference::maxpool(reference::gaussian).
#include "gaussian/gaussian_tiles.cuh"
#include "registry.h"

namespace filterlab::handwritten {
namespace {

using namespace tiles;

// Pools the even row of each pair (kept) with the odd one, and stores the 8
// pooled bytes of the strip's 16 columns. The region is the pooled part of
// the image: 2 out_width columns, 2 out_height rows.
struct StorePooled {
    uint32_t top[4];  // the even row's pairwise maxima: outputs 2j, 2j+1 in the 16-bit lanes of top[j]
    __device__ void row(const Plane &p, const TileGrid &g, int x, int y, int i, const uint32_t (&s)[16]) {
        uint32_t pooled[4];
#pragma unroll
        for (int j = 0; j < 4; j++)  // the outputs, bits 16..23 of the sums, into 16-bit lanes
            pooled[j] = __byte_perm(max(s[4 * j], s[4 * j + 1]), max(s[4 * j + 2], s[4 * j + 3]), 0x7632);
        if (i % 2 == 0) {  // a strip starts on an even row
#pragma unroll
            for (int j = 0; j < 4; j++) top[j] = pooled[j];
            return;
        }
#pragma unroll
        for (int j = 0; j < 4; j++) pooled[j] = __vmaxu2(top[j], pooled[j]);
        const uint2 v = make_uint2(__byte_perm(pooled[0], pooled[1], 0x6420), __byte_perm(pooled[2], pooled[3], 0x6420));
        const int ox = x / 2, out_width = g.columns / 2;
        uint8_t *dst = p.out + ox + row_offset(y / 2, p.out_pitch);
        if (ox + 8 <= out_width)
            *reinterpret_cast<uint2 *>(dst) = v;
        else
            store_bytes(dst, out_width - ox, make_uint4(v.x, v.y, 0, 0));
    }
};

template <typename SHAPE, int ROWS_EACH>
void run(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    static_assert(SHAPE::kRows % 2 == 0 && ROWS_EACH % 2 == 0, "strips start on even rows: pairs");
    const ColumnWeights k = column_weights(params);
    for_each_plane(in, out, "gaussian_maxpool tiles_kernel", [&](const Plane &p) {
        if (k.identity)
            launch_tiles<BlurTile<SHAPE, ROWS_EACH, true, StorePooled>>(p, k, 2 * out.width, 2 * out.height);
        else
            launch_tiles<BlurTile<SHAPE, ROWS_EACH, false, StorePooled>>(p, k, 2 * out.width, 2 * out.height);
    });
}

// The Gaussian's tiles (gaussian_tiles.cu says why).
const VariantRegistration tiles_256x64{with_algorithm(
    {"gaussian_maxpool", "hw_fused_tiles", Backend::cuda, Kind::handwritten, {}, run<TileShape<256, 64, 2, 3, 128>, 8>},
    "columns_first")};
const VariantRegistration tiles_256x56{with_algorithm(
    {"gaussian_maxpool", "hw_fused_tiles48", Backend::cuda, Kind::handwritten, {}, run<TileShape<256, 48, 2, 3, 128>, 6>},
    "columns_first")};
const VariantRegistration tiles_256x128{with_algorithm(
    {"gaussian_maxpool", "hw_fused_tiles_s2", Backend::cuda, Kind::handwritten, {}, run<TileShape<256, 128, 2, 2, 256>, 8>},
    "columns_first")};
const VariantRegistration tiles_256x128_16{with_algorithm(
    {"gaussian_maxpool", "hw_fused_tiles_r16", Backend::cuda, Kind::handwritten, {}, run<TileShape<256, 128, 2, 3, 128>, 16>},
    "columns_first")};

}  // namespace
}  // namespace filterlab::handwritten
