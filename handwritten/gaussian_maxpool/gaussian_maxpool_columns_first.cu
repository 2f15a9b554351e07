// Gaussian then 2x2 max pooling in one kernel, on the columns-first engine
// (gaussian/gaussian_columns_first.cuh: the vertical pass in packed 16-bit
// lanes, the horizontal one with dp2a, about 11 instructions a pixel in all
// against hw_fused's 27). Each thread blurs a strip of 4 WORDS columns over
// ROWS rows and pools each pair of blurred rows in registers, one store of
// 2 WORDS pooled bytes a pair: the input is read once, a quarter of it
// written. The pooling takes the 32-bit sums before they become bytes: the
// rounding, sum >> 16, keeps their order, so the largest sum rounds to the
// largest output, and the blurred rows are never packed at full resolution
// (pool_word.cuh pools packed bytes: the packing and its unpacking cost twice
// the instructions of these maxima). Gold: reference::maxpool(reference::gaussian).
#include "gaussian/gaussian_columns_first.cuh"
#include "gaussian/gaussian_staged.cuh"

namespace filterlab::handwritten {
namespace {

constexpr int kWarps = 4;  // 128 threads a block

// Pools the blurred rows of a strip of 4 WORDS columns at x0 as they come,
// an even row then an odd one.
template <int WORDS, bool CLAMP>
struct RowPooler {
    const Plane &p;
    int out_width, ox;
    uint32_t top[WORDS];  // the even row's pairwise maxima: outputs 2j, 2j+1 in the 16-bit lanes of top[j]

    __device__ RowPooler(const Plane &plane, int out_width_, int x0) : p(plane), out_width(out_width_), ox(x0 / 2) {}

    __device__ void operator()(int y, const uint32_t (&s)[4 * WORDS]) {
        uint32_t pooled[WORDS];
#pragma unroll
        for (int j = 0; j < WORDS; j++)  // the outputs, bits 16..23 of the sums, into 16-bit lanes
            pooled[j] = __byte_perm(max(s[4 * j], s[4 * j + 1]), max(s[4 * j + 2], s[4 * j + 3]), 0x7632);
        if (y % 2 == 0) {
#pragma unroll
            for (int j = 0; j < WORDS; j++) top[j] = pooled[j];
            return;
        }
#pragma unroll
        for (int j = 0; j < WORDS; j++) pooled[j] = __vmaxu2(top[j], pooled[j]);
        uint4 out = make_uint4(__byte_perm(pooled[0], pooled[1], 0x6420), 0, 0, 0);
        if constexpr (WORDS == 4) out.y = __byte_perm(pooled[2], pooled[3], 0x6420);
        uint8_t *dst = p.out + ox + row_offset(y >> 1, p.out_pitch);
        if (!CLAMP || ox + 2 * WORDS <= out_width) {  // !CLAMP: x0 + 4 WORDS + 2 <= width
            if constexpr (WORDS == 4)
                *reinterpret_cast<uint2 *>(dst) = make_uint2(out.x, out.y);  // ox is a multiple of 8
            else
                *reinterpret_cast<uint32_t *>(dst) = out.x;
        } else if (ox < out_width) {
            store_bytes(dst, out_width - ox, out);
        }
    }
};

template <int WORDS, int ROWS, int AHEAD, bool CLAMP, bool IDENTITY, bool PREFETCH>
__device__ inline void fused_thread(const Plane &p, int out_width, int out_height, const ColumnWeights &k, int lane,
                                    int x0, int y0) {
    // Near an edge (a warp column in 16 at 8192 wide) one row's loads ahead are enough.
    constexpr int kAhead = CLAMP ? 1 : AHEAD;
    blur_columns<WORDS, ROWS, kAhead, CLAMP, IDENTITY, PREFETCH>(p, x0, y0, 2 * out_height, lane, k,
                                                       RowPooler<WORDS, CLAMP>(p, out_width, x0));
}

template <int WORDS, int ROWS, int AHEAD, bool IDENTITY, bool PREFETCH>
__global__ void __launch_bounds__(32 * kWarps, WORDS == 2 ? 8 : 5)
    fused_columns_first_kernel(Plane p, int out_width, int out_height, ColumnWeights k) {
    constexpr int kWarpColumns = 32 * 4 * WORDS;
    const int lane = threadIdx.x;
    const int x0 = blockIdx.x * kWarpColumns + 4 * WORDS * lane;
    const int y0 = (blockIdx.y * kWarps + threadIdx.y) * ROWS;  // even
    if (y0 >= 2 * out_height) return;  // the whole warp: its lanes share y0
    // The blur clamps at the image's edges (p.width, p.height), not the pooled region's.
    if (blockIdx.x == 0 || (blockIdx.x + 1) * kWarpColumns + 2 > p.width)  // near the left or right edge
        fused_thread<WORDS, ROWS, AHEAD, true, IDENTITY, PREFETCH>(p, out_width, out_height, k, lane, x0, y0);
    else
        fused_thread<WORDS, ROWS, AHEAD, false, IDENTITY, PREFETCH>(p, out_width, out_height, k, lane, x0, y0);
}

template <int WORDS, int ROWS, int AHEAD, bool PREFETCH = false>
void run_fused(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    static_assert(ROWS % 2 == 0, "rows come in pooled pairs");
    const ColumnWeights k = column_weights(params);
    if (out.width == 0 || out.height == 0) return;
    for_each_plane(in, out, "gaussian_maxpool fused_columns_first_kernel", [&](const Plane &p) {
        // Only the blurred columns 0..2 out.width - 1 and rows 0..2 out.height - 1 are pooled.
        const dim3 grid((2 * out.width + 32 * 4 * WORDS - 1) / (32 * 4 * WORDS),
                        (2 * out.height + kWarps * ROWS - 1) / (kWarps * ROWS));
        if (k.identity)
            fused_columns_first_kernel<WORDS, ROWS, AHEAD, true, PREFETCH>
                <<<grid, dim3(32, kWarps), 0, stream()>>>(p, out.width, out.height, k);
        else
            fused_columns_first_kernel<WORDS, ROWS, AHEAD, false, PREFETCH>
                <<<grid, dim3(32, kWarps), 0, stream()>>>(p, out.width, out.height, k);
    });
}

// The same fused on rows staged in shared memory by the copy engine
// (gaussian/gaussian_staged.cuh): one tall strip a warp, no wait on loads.
template <int WORDS, int SLOTS, bool IDENTITY>
__global__ void __launch_bounds__(32 * kWarps)
    fused_staged_kernel(Plane p, int out_width, int out_height, ColumnWeights k, int bands, int strip_rows) {
    extern __shared__ __align__(128) uint8_t shared[];
    const int lane = static_cast<int>(threadIdx.x) & 31, warp_in_block = static_cast<int>(threadIdx.x) / 32;
    const int warp = static_cast<int>(blockIdx.x) * kWarps + warp_in_block;
    const int band = warp % bands, top = warp / bands * strip_rows;  // strip_rows is even
    if (top >= 2 * out_height) return;  // the whole warp
    const StagedRing<WORDS, SLOTS> ring(shared + warp_in_block * StagedRing<WORDS, SLOTS>::kBytes, lane);
    const int rows = min(strip_rows, 2 * out_height - top);
    const int2 strip = staged_strip<WORDS>(band, lane);
    // The blur clamps at the image's edges (p.width, p.height), not the pooled region's.
    if (band == 0 || (band + 1) * 128 * WORDS + 2 > p.width)
        blur_staged<WORDS, SLOTS, true, IDENTITY>(ring, p, strip.x, strip.y, top, rows, lane, k,
                                                  RowPooler<WORDS, true>(p, out_width, strip.y));
    else
        blur_staged<WORDS, SLOTS, false, IDENTITY>(ring, p, strip.x, strip.y, top, rows, lane, k,
                                                   RowPooler<WORDS, false>(p, out_width, strip.y));
}

template <int WORDS, int SLOTS, bool IDENTITY>
void launch_staged(const Plane &p, int out_width, int out_height, const ColumnWeights &k) {
    constexpr std::size_t kShared = kWarps * StagedRing<WORDS, SLOTS>::kBytes;
    constexpr int kMinRows = 16;  // a strip's least rows: its 4 halo rows are blurred by two warps
    const auto kernel = fused_staged_kernel<WORDS, SLOTS, IDENTITY>;
    const int bands = (2 * out_width + 128 * WORDS - 1) / (128 * WORDS);
    const StripGrid grid = strip_grid(kernel, kWarps, kShared, bands, 2 * out_height, kMinRows, 2);
    kernel<<<(grid.warps + kWarps - 1) / kWarps, 32 * kWarps, kShared, stream()>>>(p, out_width, out_height, k, bands,
                                                                                  grid.rows);
}

template <int WORDS, int SLOTS>
void run_staged(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    const ColumnWeights k = column_weights(params);
    if (out.width == 0 || out.height == 0) return;
    for_each_plane(in, out, "gaussian_maxpool fused_staged_kernel", [&](const Plane &p) {
        if (k.identity) launch_staged<WORDS, SLOTS, true>(p, out.width, out.height, k);
        else launch_staged<WORDS, SLOTS, false>(p, out.width, out.height, k);
    });
}

const VariantRegistration fused_staged{
    with_algorithm({"gaussian_maxpool", "hw_fused_staged", Backend::cuda, Kind::handwritten, {}, run_staged<2, 3>}, "columns_first")};
// TUNING (not to commit)
const VariantRegistration fused_staged_w4{
    with_algorithm({"gaussian_maxpool", "hw_fused_staged_w4", Backend::cuda, Kind::handwritten, {}, run_staged<4, 3>}, "columns_first")};
const VariantRegistration fused_staged_w4s4{
    with_algorithm({"gaussian_maxpool", "hw_fused_staged_w4s4", Backend::cuda, Kind::handwritten, {}, run_staged<4, 4>}, "columns_first")};

// 8-pixel strips, 16 blurred rows (8 pooled) a thread, 3 rows' loads in
// flight: the Gaussian's columns-first shape (gaussian_columns_first.cu says
// why). The kernel waits on its loads, neither DRAM nor issue slots
// saturated, so the shape only moves how well that wait is hidden; the nearby
// shapes (8 or 32 rows, 6 ahead, 16-pixel strips) hide it no better.
const VariantRegistration fused_columns_first{
    with_algorithm({"gaussian_maxpool", "hw_fused_columns_first", Backend::cuda, Kind::handwritten, {}, run_fused<2, 16, 3>}, "columns_first")};
// TUNING (not to commit)
const VariantRegistration fused_columns_first_pf{
    with_algorithm({"gaussian_maxpool", "hw_fused_columns_first_pf", Backend::cuda, Kind::handwritten, {}, run_fused<2, 16, 3, true>}, "columns_first")};
const VariantRegistration fused_columns_first_pf32{
    with_algorithm({"gaussian_maxpool", "hw_fused_columns_first_pf32", Backend::cuda, Kind::handwritten, {}, run_fused<2, 32, 3, true>}, "columns_first")};

}  // namespace
}  // namespace filterlab::handwritten
