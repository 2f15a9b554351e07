// The 3x3 box mean on tiles that the copy engine brings into shared memory
// (tile_pipeline.cuh): hw_running_sums waits on its loads with 4 rows in
// flight a warp; here a block's next tiles are in flight while it filters
// one, read from shared memory already clamped. A thread averages 16 columns
// over ROWS_EACH rows: its rows as ten pairs of pixels in 16-bit lanes, the
// vertical sum of three rows one add a pair, the horizontal sum three dp2a
// for two pixels, the division by 9 one multiply a pixel. Radius 1 only: a
// larger window needs a running sum down the strip (hw_running_sums).
// Gold: reference::box.
#include "registry.h"
#include "strip_words.cuh"
#include "tile_pipeline.cuh"

namespace filterlab::handwritten {
namespace {

using namespace tiles;

// floor((s + 4) / 9) is byte 2 of (s + 4) * 7282 for every 3x3 sum s <= 9 * 255
// (7282 = ceil(2^16 / 9), and (s + 4) * 2 < 2^16 keeps the error below 1/9).
constexpr uint32_t kNinth = 7282;
static_assert(((9 * 255 + 4) * kNinth >> 16) == (9 * 255 + 4) / 9 && (9 * 255 + 4) * 2 < (1u << 16));

struct NoArgs {};

template <typename SHAPE, int ROWS_EACH>
struct Box3Tile {
    using Shape = SHAPE;
    using Args = NoArgs;
    static_assert(SHAPE::kHalo == 1, "the 3x3 window");

    __device__ static void filter(const uint8_t *stage, const Plane &p, NoArgs, TileOrigin o, const TileGrid &g) {
        walk_strip<SHAPE, ROWS_EACH>(stage, o, g, [&](const uint32_t (&win)[3][10], int x, int y) {
            uint32_t v[10], s[16];  // column sums of the pairs; (sum + 4) * kNinth a pixel
#pragma unroll
            for (int j = 0; j < 10; j++) v[j] = win[0][j] + win[1][j] + win[2][j];
#pragma unroll
            for (int i = 0; i < 8; i++) {  // pixels 2i, 2i+1: pair i + 1 of v
                const uint32_t both = __dp2a_lo(v[i + 1], 0x0101u, 4u);
                s[2 * i] = __dp2a_lo(v[i], 0x0100u, both) * kNinth;          // + pixel 2i - 1
                s[2 * i + 1] = __dp2a_lo(v[i + 2], 0x0001u, both) * kNinth;  // + pixel 2i + 2
            }
            const uint32_t out[4] = {pack_sums(s[0], s[1], s[2], s[3]), pack_sums(s[4], s[5], s[6], s[7]),
                                     pack_sums(s[8], s[9], s[10], s[11]), pack_sums(s[12], s[13], s[14], s[15])};
            store_strip(p.out + x + row_offset(y, p.out_pitch), x, p.width, out);
        });
    }
};

template <typename SHAPE, int ROWS_EACH>
void run(const PlanarView &in, const PlanarView &out, const ParamValues &) {
    for_each_plane(in, out, "box tiles_kernel", [&](const Plane &p) {
        launch_tiles<Box3Tile<SHAPE, ROWS_EACH>>(p, NoArgs{}, p.width, p.height);
    });
}

// The Gaussian's tile shape, for the same reasons (gaussian_tiles.cu); a
// thread re-reads 2 halo rows for 8 outputs.
const VariantRegistration tiles{with_algorithm(
    {"box", "hw_tiles", Backend::cuda, Kind::handwritten, parse_supports("radius=1"), run<TileShape<256, 64, 1, 3, 128>, 8>},
    "separable")};

}  // namespace
}  // namespace filterlab::handwritten
