// The box mean of every radius on tiles that the copy engine brings into
// shared memory (tile_pipeline.cuh), by hw_running_sums's column sums
// (box_columns.cuh). hw_running_sums waits on global loads, 4 rows in flight
// a warp, and re-reads its 2r warm-up rows of each 16-row strip from the L2;
// here a block's next tiles are in flight while it filters one, every row is
// read from shared memory, already clamped, and a tile's halo rows come from
// the L2 once a tile.
//
// A tile's 256 columns (its 224 outputs and the 16 on each side) are one
// band of 16 lanes, a half-warp, each lane a unit of 16 columns: the column
// sums of its own unit only, slid down the band's rows; the horizontal window
// takes the neighbouring lanes' sums by shuffles within the half-warp (r <
// 16), so its first and last lanes, on the sides, are halo only. The block's
// half-warps split the tile's rows, each band ROWS_EACH rows of outputs after
// a warm-up of 2r rows. Gold: reference::box.
#include <array>
#include <cstdint>
#include <utility>

#include "box_columns.cuh"
#include "registry.h"
#include "strip_words.cuh"
#include "tile_pipeline.cuh"

namespace filterlab::handwritten {
namespace {

using namespace tiles;
using namespace box_columns;

constexpr int kBand = 16;                       // lanes a band: a half-warp
constexpr int kTileColumns = (kBand - 2) * 16;  // a tile's outputs across: all lanes but the two sides'
// Two blocks an SM on sm_90 (228 KB of shared memory, 1 KB of it reserved a block).
constexpr int kBlockShared = 112 * 1024;

// A tile of BANDS bands of ROWS_EACH output rows with a halo of R rows,
// reading a whole unit past a strip.
template <int R, int BANDS, int ROWS_EACH, int STAGES>
using BandShape = TileShape<kTileColumns, BANDS * ROWS_EACH, R, STAGES, BANDS * kBand, 16>;

// As many stages as two blocks an SM leave room for, 2 or 3.
template <int R, int BANDS, int ROWS_EACH>
constexpr int band_stages() {
    constexpr int fit = kBlockShared / (BandShape<R, BANDS, ROWS_EACH, 1>::kStageBytes + 12);
    return fit < 2 ? 2 : (fit > 3 ? 3 : fit);
}

struct NoArgs {};

template <int R, int BANDS, int ROWS_EACH>
struct SumsTile {
    using Shape = BandShape<R, BANDS, ROWS_EACH, band_stages<R, BANDS, ROWS_EACH>()>;
    using Args = NoArgs;

    __device__ static void filter(const uint8_t *stage, const Plane &p, NoArgs, TileOrigin o, const TileGrid &g) {
        const int u = static_cast<int>(threadIdx.x) % kBand, band = static_cast<int>(threadIdx.x) / kBand;
        const int top = o.y0 + band * ROWS_EACH;  // the band's first output row
        const int rows = min(ROWS_EACH, g.rows - top);
        if (rows <= 0) return;  // the same for the whole band
        const unsigned lanes = 0xffffu << (threadIdx.x & 16);
        auto row = [&](int y) {  // image row y's unit u, y - top in -R .. ROWS_EACH - 1 + R
            return *reinterpret_cast<const uint4 *>(stage + unit_offset<Shape>(y - o.y0 + R, u));
        };
        const int x = o.x0 + 16 * (u - 1);
        const bool mine = u >= 1 && u <= kBand - 2 && x < g.columns;
        auto emit = [&](int y, const Cols &c) {
            const uint4 v = means<R, kBand>(c, lanes);
            const uint32_t out[4] = {v.x, v.y, v.z, v.w};
            if (mine) store_strip(p.out + x + row_offset(y, p.out_pitch), x, p.width, out);
        };
        Cols c = {};
#pragma unroll 8
        for (int y = top - R; y <= top + R; y++) add_row(c, row(y));
        emit(top, c);
#pragma unroll 2
        for (int y = top + 1; y < top + rows; y++) {
            slide_rows(c, row(y + R), row(y - 1 - R));
            emit(y, c);
        }
    }
};

template <int R, int BANDS, int ROWS_EACH>
void launch(const Plane &p) {
    launch_tiles<SumsTile<R, BANDS, ROWS_EACH>>(p, NoArgs{}, p.width, p.height);
}

template <int BANDS, int ROWS_EACH, std::size_t... Rs>
constexpr auto make_launchers(std::index_sequence<Rs...>) {
    return std::array<void (*)(const Plane &), sizeof...(Rs)>{
        &launch<static_cast<int>(Rs) + 1, BANDS, ROWS_EACH>...};
}

template <int BANDS, int ROWS_EACH>
void run(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    static constexpr auto launchers =
        make_launchers<BANDS, ROWS_EACH>(std::make_index_sequence<kBoxMaxRadius>{});
    const int radius = static_cast<int>(params.at("radius"));
    for_each_plane(in, out, "box tiled_sums", [&](const Plane &p) { launchers.at(radius - 1)(p); });
}

// 8 bands of 16 rows: the warm-up's 2r rows cost less than a row a row at r 7,
// and a tile (128 rows and its halo) leaves two blocks an SM.
const VariantRegistration tiled_sums{
    with_algorithm({"box", "hw_tiled_sums", Backend::cuda, Kind::handwritten, {}, run<8, 16>}, "running_sums")};
const VariantRegistration tiled_sums_b16{
    with_algorithm({"box", "hw_tiled_sums_b16", Backend::cuda, Kind::handwritten, {}, run<16, 8>}, "running_sums")};
const VariantRegistration tiled_sums_r24{
    with_algorithm({"box", "hw_tiled_sums_r24", Backend::cuda, Kind::handwritten, {}, run<8, 24>}, "running_sums")};
const VariantRegistration tiled_sums_r12{
    with_algorithm({"box", "hw_tiled_sums_r12", Backend::cuda, Kind::handwritten, {}, run<8, 12>}, "running_sums")};

}  // namespace
}  // namespace filterlab::handwritten
