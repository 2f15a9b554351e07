// The Gaussian columns first (gaussian_columns_first.cuh): the vertical pass
// on bytes in packed 16-bit lanes, the horizontal one with dp2a, about 11
// instructions a pixel in all against hw_separable's 25 (rows first: its
// vertical pass needs 32 bits a pixel). A thread blurs a strip of 4 WORDS
// pixels over ROWS rows, one load and one store a row, the halo through warp
// shuffles; 8-pixel strips keep a thread within 64 registers (8 blocks of 128
// threads an SM), 16-pixel ones need about 90. Gold: reference::gaussian.
#include "gaussian_columns_first.cuh"

namespace filterlab::handwritten {
namespace {

constexpr int kWarps = 4;  // 128 threads a block

template <int WORDS, int ROWS, int AHEAD, bool CLAMP, bool IDENTITY, bool PREFETCH>
__device__ inline void blur_thread(const Plane &p, const ColumnWeights &k, int lane, int x0, int y0) {
    // Near an edge (a warp column in 16 at 8192 wide) one row's loads ahead are enough.
    constexpr int kAhead = CLAMP ? 1 : AHEAD;
    blur_columns<WORDS, ROWS, kAhead, CLAMP, IDENTITY, PREFETCH>(
        p, x0, y0, p.height, lane, k, [&](int y, const auto &s) { store_blurred_row<WORDS, CLAMP>(p, x0, y, s); });
}

template <int WORDS, int ROWS, int AHEAD, bool IDENTITY, bool PREFETCH>
__global__ void __launch_bounds__(32 * kWarps, WORDS == 2 ? 8 : 5) columns_first_kernel(Plane p, ColumnWeights k) {
    constexpr int kWarpColumns = 32 * 4 * WORDS;
    const int lane = threadIdx.x;
    const int x0 = blockIdx.x * kWarpColumns + 4 * WORDS * lane;
    const int y0 = (blockIdx.y * kWarps + threadIdx.y) * ROWS;
    if (y0 >= p.height) return;  // the whole warp: its lanes share y0
    if (blockIdx.x == 0 || (blockIdx.x + 1) * kWarpColumns + 2 > p.width)  // near the left or right edge
        blur_thread<WORDS, ROWS, AHEAD, true, IDENTITY, PREFETCH>(p, k, lane, x0, y0);
    else
        blur_thread<WORDS, ROWS, AHEAD, false, IDENTITY, PREFETCH>(p, k, lane, x0, y0);
}

template <int WORDS, int ROWS, int AHEAD, bool PREFETCH = false>
void run(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    const ColumnWeights k = column_weights(params);
    for_each_plane(in, out, "gaussian columns_first_kernel", [&](const Plane &p) {
        const dim3 grid((p.width + 32 * 4 * WORDS - 1) / (32 * 4 * WORDS),
                        (p.height + kWarps * ROWS - 1) / (kWarps * ROWS));
        if (k.identity)
            columns_first_kernel<WORDS, ROWS, AHEAD, true, PREFETCH><<<grid, dim3(32, kWarps), 0, stream()>>>(p, k);
        else
            columns_first_kernel<WORDS, ROWS, AHEAD, false, PREFETCH><<<grid, dim3(32, kWarps), 0, stream()>>>(p, k);
    });
}

// Why 8-pixel strips, 8 rows a thread, 3 rows' loads in flight: the kernel
// waits on its loads, so the warps an SM holds matter more than the halo rows
// each thread filters twice. Taller blocks of rows and wider strips need more
// registers and so leave fewer warps; shorter ones (4 or 6 rows) re-filter
// more halo rows than they gain. 3 rows ahead: fewer leave the wait
// exposed, more cost registers and so warps.
const VariantRegistration columns_first{
    with_algorithm({"gaussian", "hw_columns_first", Backend::cuda, Kind::handwritten, {}, run<2, 8, 3>}, "columns_first")};
// TUNING (not to commit)
const VariantRegistration columns_first_pf{
    with_algorithm({"gaussian", "hw_columns_first_pf", Backend::cuda, Kind::handwritten, {}, run<2, 8, 3, true>}, "columns_first")};
const VariantRegistration columns_first_pf16{
    with_algorithm({"gaussian", "hw_columns_first_pf16", Backend::cuda, Kind::handwritten, {}, run<2, 16, 3, true>}, "columns_first")};

}  // namespace
}  // namespace filterlab::handwritten
