// Our best non-local means (FILTERS.md; gold: reference::nlmeans): one kernel,
// no per-offset round trip to global memory. A block of 128 threads owns a
// tile of (128 - 2p) x 16 outputs. It copies the input the tile can reach
// (tile + patch + search halo, all channels, clamp border) into shared memory
// once, keeps its accumulators in registers, and for each of the (2s+1)^2
// offsets runs two phases:
//   1. columns: thread t walks down column t of the tile + patch halo,
//      computing the squared differences (summed over channels) once each and
//      keeping the vertical patch sums V as a running sum (+ the new row, - the
//      row leaving the patch, both in registers), and writes the 16 V to shared
//      memory;
//   2. rows: each thread reads, with 16-byte loads, the V of 4 adjacent
//      outputs plus the 2p columns either side, on 4 rows; a horizontal running
//      sum gives the patch sums, ex2.approx of the prescaled sum the weight,
//      and the weighted samples go into the thread's registers.
// V is double-buffered, so one barrier per offset suffices. Both phases read
// shared memory without bank conflicts (phase 1: neighbouring threads read
// neighbouring bytes; phase 2: neighbouring 16-byte words). The patch radius
// and channel count are template parameters so that every per-thread array
// is in registers; every patch radius of the contract (0..kNlmeansMaxPatch) is
// compiled, for 1 and 3 channels.
//
// Exactness: samples become floats exactly (0x4B000000 | byte is 2^23 + byte),
// and every sum of squared differences below 2^24 is exact in float, which V
// always is (at most (2 kNlmeansMaxPatch + 1) * 3 * 255^2, asserted below); a
// patch sum above 2^24 is rounded by at most a relative 6e-8. ex2.approx has
// a relative error near 2^-22; the check measures the result against the
// tolerance.
#include <utility>

#include "contract_ranges.h"
#include "nlmeans_common.cuh"

namespace filterlab::handwritten::nlmeans {
namespace {

constexpr int kThreads = 128;                    // = the V columns of a tile
constexpr int kRows = 16;                        // output rows of a tile
constexpr int kGroups = 32;                      // phase 2: 4-column groups across the tile (one warp)
constexpr int kGroupRows = kRows / (kThreads / kGroups);  // rows per phase-2 thread: 4
constexpr int kMaxPatch = kNlmeansMaxPatch;
static_assert((2 * kMaxPatch + 1) * 3 * 255 * 255 < (1 << 24), "a column of V is exact in float");

template <int P>
struct Tile {
    static constexpr int width = kThreads - 2 * P;        // output columns
    static constexpr int chunks = (2 * P + 4 + 3) / 4;    // float4 loads for 4 outputs' V
    static constexpr int v_pitch = kThreads + 4 * chunks;  // the last group reads up to 124 + 4 * chunks - 1
    static constexpr int v_floats = kRows * v_pitch;
};

// The input block in shared memory (Staged, nlmeans_common.cuh): columns
// x0 - p - s .. (kThreads + 2s of them), rows y0 - p - s .. (kRows + 2p + 2s of
// them), one plane per channel. Phase 1 is column_sums (nlmeans_common.cuh).

template <int P, int C>
struct Accumulators {
    float weights[kGroupRows][4] = {};
    float sums[kGroupRows][4][C] = {};
};

// Phase 2 for the thread's 4 x kGroupRows outputs (tile columns x0.., rows y0..).
template <int P, int C>
__device__ inline void accumulate(const Staged &in, const float *v, int x0, int y0, int s, int dx, int dy,
                                  float scale, Accumulators<P, C> &acc) {
#pragma unroll
    for (int r = 0; r < kGroupRows; r++) {
        float row[4 * Tile<P>::chunks];
        load_v_row(v + (y0 + r) * Tile<P>::v_pitch + x0, row);
        float patch_sum = 0;
#pragma unroll
        for (int i = 0; i <= 2 * P; i++) patch_sum += row[i];
#pragma unroll
        for (int k = 0; k < 4; k++) {
            if (k > 0) patch_sum += row[2 * P + k] - row[k - 1];
            const float w = fast_exp2(patch_sum * scale);
            acc.weights[r][k] += w;
            // Columns past the tile's last output are computed on a clamped
            // column and never stored.
            const int column = min(x0 + k, Tile<P>::width - 1) + P + s + dx;
#pragma unroll
            for (int c = 0; c < C; c++)
                acc.sums[r][k][c] = fmaf(w, in.magic(c, y0 + r + P + s + dy, column) - 8388608.0f, acc.sums[r][k][c]);
        }
    }
}

template <int P, int C>
__global__ void __launch_bounds__(kThreads) fused_kernel(Planes img, int s, float scale) {
    extern __shared__ float4 shared[];
    float *v_buffers = reinterpret_cast<float *>(shared);  // two V buffers
    const int t = threadIdx.x;
    const int tile_x = blockIdx.x * Tile<P>::width, tile_y = blockIdx.y * kRows;

    uint8_t *staging = reinterpret_cast<uint8_t *>(v_buffers + 2 * Tile<P>::v_floats);
    const int staged_pitch = kThreads + 2 * s;
    const Staged in{staging, staged_pitch, staged_pitch * (kRows + 2 * P + 2 * s)};
    for (int e = t; e < C * in.plane; e += kThreads) {
        const int c = e / in.plane, row = (e % in.plane) / in.pitch, column = e % in.pitch;
        staging[e] = img.in[c][clamp_index(tile_y - P - s + row, img.height - 1) * img.in_pitch +
                               clamp_index(tile_x - P - s + column, img.width - 1)];
    }
    // The V columns past kThreads are read (for outputs never stored) but not written: zero them.
    for (int e = t; e < 2 * Tile<P>::v_floats; e += kThreads) v_buffers[e] = 0;
    __syncthreads();

    float center[C == 1 ? kRows + 2 * P : 1];
    if constexpr (C == 1) {
#pragma unroll
        for (int k = 0; k < kRows + 2 * P; k++) center[k] = in.magic(0, k + s, t + s);
    }
    const int x0 = 4 * (t % kGroups), y0 = kGroupRows * (t / kGroups);
    Accumulators<P, C> acc;
    int parity = 0;
    for (int dy = -s; dy <= s; dy++)
        for (int dx = -s; dx <= s; dx++, parity ^= 1) {
            float *v = v_buffers + parity * Tile<P>::v_floats;
            column_sums<P, C, kRows, Tile<P>::v_pitch>(in, center, t, s, s, dx, dy, v);
            __syncthreads();
            accumulate<P, C>(in, v, x0, y0, s, dx, dy, scale, acc);
        }

#pragma unroll
    for (int r = 0; r < kGroupRows; r++)
#pragma unroll
        for (int k = 0; k < 4; k++) {
            const int x = tile_x + x0 + k, y = tile_y + y0 + r;
            if (x0 + k >= Tile<P>::width || x >= img.width || y >= img.height) continue;
#pragma unroll
            for (int c = 0; c < C; c++) {
                const float u = fminf(fmaxf(acc.sums[r][k][c] / acc.weights[r][k], 0.0f), 255.0f);
                img.out[c][y * img.out_pitch + x] = static_cast<uint8_t>(floorf(u + 0.5f));
            }
        }
}

template <int P, int C>
void launch(const Planes &img, const Params &prm) {
    const std::size_t bytes =
        2 * Tile<P>::v_floats * sizeof(float) + std::size_t(C) * (kThreads + 2 * prm.search) * (kRows + 2 * P + 2 * prm.search);
    cuda_check(cudaFuncSetAttribute(fused_kernel<P, C>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)),
               "cudaFuncSetAttribute (nlmeans fused_kernel)");
    const dim3 grid((img.width + Tile<P>::width - 1) / Tile<P>::width, (img.height + kRows - 1) / kRows);
    // exp(-S * k) = 2^(-S * k * log2(e)): the prescaled argument of ex2.
    const float scale = static_cast<float>(-prm.inverse_scale * 1.4426950408889634);
    fused_kernel<P, C><<<grid, kThreads, bytes, stream()>>>(img, prm.search, scale);
    check_launch("nlmeans fused_kernel");
}

template <int... P>
void dispatch(const Planes &img, const Params &prm, std::integer_sequence<int, P...>) {
    using Launch = void (*)(const Planes &, const Params &);
    static constexpr Launch gray[] = {&launch<P, 1>...}, rgb[] = {&launch<P, 3>...};
    if (img.channels != 1 && img.channels != 3) throw Error("nlmeans hw_fused takes 1 or 3 channels");
    (img.channels == 1 ? gray : rgb)[prm.patch](img, prm);
}

void run(const PlanarView &in, const PlanarView &out, const ParamValues &values) {
    dispatch(planes(in, out), params(values, in.channels), std::make_integer_sequence<int, kMaxPatch + 1>());
}

const VariantRegistration fused{{"nlmeans", "hw_fused", Backend::cuda, Kind::handwritten, {}, run}};

}  // namespace
}  // namespace filterlab::handwritten::nlmeans
