// The Gaussian columns first, its rows staged in shared memory by the copy
// engine (gaussian_staged.cuh): hw_columns_first's arithmetic, about 11
// instructions a pixel, without its wait on loads. Each warp owns a band of
// 128 WORDS columns and walks one tall strip; the image's strips are as many
// as the GPU holds warps at once (row_ring.cuh: strip_grid).
// Gold: reference::gaussian.
#include "gaussian_staged.cuh"

namespace filterlab::handwritten {
namespace {

constexpr int kWarps = 4;     // warps a block, each with its own ring and strip
constexpr int kMinRows = 16;  // a strip's least rows: its 4 halo rows are filtered by two warps

template <int WORDS, int SLOTS, bool IDENTITY>
__global__ void __launch_bounds__(32 * kWarps) staged_kernel(Plane p, ColumnWeights k, int bands, int strip_rows) {
    extern __shared__ __align__(128) uint8_t shared[];
    const int lane = static_cast<int>(threadIdx.x) & 31, warp_in_block = static_cast<int>(threadIdx.x) / 32;
    const int warp = static_cast<int>(blockIdx.x) * kWarps + warp_in_block;
    const int band = warp % bands, top = warp / bands * strip_rows;
    if (top >= p.height) return;  // the whole warp
    const StagedRing<WORDS, SLOTS> ring(shared + warp_in_block * StagedRing<WORDS, SLOTS>::kBytes, lane);
    const int rows = min(strip_rows, p.height - top);
    const int2 strip = staged_strip<WORDS>(band, lane);
    const int x0 = strip.y;
    if (band == 0 || (band + 1) * 128 * WORDS + 2 > p.width)  // near the left or right edge
        blur_staged<WORDS, SLOTS, true, IDENTITY>(ring, p, strip.x, x0, top, rows, lane, k,
                                                  [&](int y, const auto &s) { store_blurred_row<WORDS, true>(p, x0, y, s); });
    else
        blur_staged<WORDS, SLOTS, false, IDENTITY>(ring, p, strip.x, x0, top, rows, lane, k,
                                                   [&](int y, const auto &s) { store_blurred_row<WORDS, false>(p, x0, y, s); });
}

template <int WORDS, int SLOTS, bool IDENTITY>
void launch(const Plane &p, const ColumnWeights &k) {
    constexpr std::size_t kShared = kWarps * StagedRing<WORDS, SLOTS>::kBytes;
    const auto kernel = staged_kernel<WORDS, SLOTS, IDENTITY>;
    const int bands = (p.width + 128 * WORDS - 1) / (128 * WORDS);
    const StripGrid grid = strip_grid(kernel, kWarps, kShared, bands, p.height, kMinRows);
    kernel<<<(grid.warps + kWarps - 1) / kWarps, 32 * kWarps, kShared, stream()>>>(p, k, bands, grid.rows);
}

template <int WORDS, int SLOTS>
void run(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    const ColumnWeights k = column_weights(params);
    for_each_plane(in, out, "gaussian staged_kernel", [&](const Plane &p) {
        if (k.identity) launch<WORDS, SLOTS, true>(p, k);
        else launch<WORDS, SLOTS, false>(p, k);
    });
}

const VariantRegistration staged{
    with_algorithm({"gaussian", "hw_staged_columns", Backend::cuda, Kind::handwritten, {}, run<2, 3>}, "columns_first")};
// TUNING (not to commit)
const VariantRegistration staged_w4{
    with_algorithm({"gaussian", "hw_staged_columns_w4", Backend::cuda, Kind::handwritten, {}, run<4, 3>}, "columns_first")};
const VariantRegistration staged_w4s2{
    with_algorithm({"gaussian", "hw_staged_columns_w4s2", Backend::cuda, Kind::handwritten, {}, run<4, 2>}, "columns_first")};
const VariantRegistration staged_w4s4{
    with_algorithm({"gaussian", "hw_staged_columns_w4s4", Backend::cuda, Kind::handwritten, {}, run<4, 4>}, "columns_first")};

}  // namespace
}  // namespace filterlab::handwritten
