// Non-local means computing half the weights (FILTERS.md; gold: reference::nlmeans).
// The patch distance is symmetric: d²(x; d) = d²(x + d; -d), clamped reads
// included (the formula holds at any position, inside the image or not). So
// one weight w serves two terms: w·J(x + d) for x and w·J(x) for x + d. Only
// the offsets of half the window are computed, H = {dy > 0} ∪ {dy = 0, dx > 0};
// the zero offset weighs exp(0) = 1. That halves hw_fused's patch distances
// and exponentials, the costly part; each weight is then accumulated twice.
//
// A block of 128 threads owns the sources of a tile of (128 - 2p) x 16 and
// computes their weights for each offset of H as hw_fused does, one barrier
// per offset: phase 1 (column_sums, nlmeans_common.cuh) writes the vertical
// patch sums V to shared memory; in phase 2 a thread owns a run of 16 sources
// of one row, reads its V with 16-byte loads, takes horizontal running sums
// and ex2 (one channel: its partners' samples J(x + d) from a window loaded
// once for a group of offsets, load_there). Then
//   - forward terms (x gets w·J(x + d)) go into the thread's registers;
//   - backward terms (x + d gets w·J(x)) land, over the dx of one dy, on a
//     run that slides right with dx. The thread keeps a window of 16 + K - 1
//     targets in registers for K offsets at a time; after them its first K
//     targets are final and go to shared accumulators (read-modify-write: the
//     runs of one barrier interval never overlap), and the window slides on.
//     So shared memory sees about one read-modify-write per 16 weights.
// At the end a block adds its forward sums to the shared accumulators and
// those (the tile and the s-halo its targets reach) to global ones with
// atomics; normalise (nlmeans_common.cu) finishes. Sources outside the image
// (up to s above it, left and right of it) still give backward terms to
// pixels inside, so the tiles start at (-s, -s) and cover them; targets
// outside the image are dropped. Two blocks share a tile, each taking about
// half the rows dy of H (finer blocks, fuller waves).
//
// One channel stages the input as floats (no conversion in the loops; the
// registers, not shared memory, limit the blocks per SM), three as bytes
// (Staged). Bank conflicts: V's row pitch is 4 x odd floats (the 8 rows of a
// quarter warp read 8 distinct 16-byte bank groups); a warp's phase-2 threads
// are 16 rows of two runs 16 words apart (runs 2w, 2w + 1 of floats, w, w + 4
// of bytes), and the staged pitch is an odd number of words: 32 distinct
// banks. Arithmetic as hw_fused's (ex2.approx of the prescaled exact patch
// sum); only the summation order differs (atomics).
#include <string>
#include <type_traits>
#include <utility>

#include "contract_ranges.h"
#include "nlmeans_common.cuh"

namespace filterlab::handwritten::nlmeans {
namespace {

constexpr int kThreads = 128;  // = the V columns of a tile
constexpr int kRows = 16;      // source rows of a tile
constexpr int kRun = 16;       // phase 2: a thread's sources, along one row
constexpr int kMaxPatch = kNlmeansMaxPatch;
// V past the tile: the sources past its last (128 - 2p) get a patch sum of
// at least this, hence weight 0 (no select needed); finite, so no inf - inf.
constexpr float kFar = 1e30f;

// The least multiple of 4 >= n whose quarter is odd.
__host__ __device__ constexpr int odd_quads(int n) { return (n + 3) / 4 % 2 ? (n + 3) / 4 * 4 : (n + 3) / 4 * 4 + 4; }

template <int P>
struct Shape {
    static constexpr int width = kThreads - 2 * P;                 // source columns of a tile
    static constexpr int chunks = (kRun + 2 * P + 3) / 4;          // float4 loads of V per run
    static constexpr int v_pitch = odd_quads(kThreads - kRun + 4 * chunks);
    static constexpr int v_floats = kRows * v_pitch;
};

// Shared memory past the two V buffers: the accumulators (C numerator planes,
// then the weight sums) of the targets, tile columns -s .. 127 + s + K and rows
// 0 .. 15 + s; then the staged input, rows y0 - p .. (16 + 2p + s: dy >= 0),
// columns x0 - p - s .. (128 + 2s + 2p: the sources past the tile read too).
struct Layout {
    int acc_pitch, acc_plane, staged_pitch, staged_rows, staged_plane;  // in floats, and staged elements
    __host__ __device__ Layout(int p, int s, int k, int c)
        : acc_pitch((kThreads + 2 * s + k) | 1), acc_plane(acc_pitch * (kRows + s)),
          staged_pitch(c == 1 ? (kThreads + 2 * s + 2 * p) | 1 : odd_quads(kThreads + 2 * s + 2 * p)),
          staged_rows(kRows + 2 * p + s), staged_plane(staged_pitch * staged_rows) {}
};

struct StagedFloats {
    const float *data;
    int pitch, plane;
    __device__ float value(int c, int row, int column) const { return data[c * plane + row * pitch + column]; }
};

template <int C>
using Input = std::conditional_t<C == 1, StagedFloats, Staged>;

__device__ inline float sample(const StagedFloats &in, int c, int row, int column) { return in.value(c, row, column); }
__device__ inline float sample(const Staged &in, int c, int row, int column) {
    return in.magic(c, row, column) - 8388608.0f;
}

// A phase-2 thread's registers.
template <int C, int K>
struct Run {
    float here[C == 1 ? kRun : 1];                    // J of its sources (3 channels: read when used)
    float weight[kRun] = {}, sum[kRun][C] = {};       // their forward accumulators
    float out_weight[kRun + K - 1] = {}, out_sum[kRun + K - 1][C] = {};  // the backward window
};

// Phase 2 of offset (dx, dy), the j-th of its group of K, for the run of
// sources u0 .. u0 + 15 (tile columns) of row r: source k's backward target
// is window entry j + k.
template <int P, int C, int K>
__device__ __forceinline__ void row_sums(const Input<C> &in, const float *v, int r, int u0, int s, int dx, int dy, int j,
                                         float scale, const float (&there_window)[kRun + K - 1], Run<C, K> &run) {
    float row[4 * Shape<P>::chunks];
    load_v_row(v + r * Shape<P>::v_pitch + u0, row);
    float patch_sum = 0;
#pragma unroll
    for (int i = 0; i <= 2 * P; i++) patch_sum += row[i];
#pragma unroll
    for (int k = 0; k < kRun; k++) {
        if (k > 0) patch_sum += row[2 * P + k] - row[k - 1];
        const float w = fast_exp2(patch_sum * scale);
        run.weight[k] += w;
        run.out_weight[j + k] += w;
#pragma unroll
        for (int c = 0; c < C; c++) {
            const float there = C == 1 ? there_window[j + k] : sample(in, c, r + P + dy, u0 + k + P + s + dx);
            run.sum[k][c] = fmaf(w, there, run.sum[k][c]);
            float here;
            if constexpr (C == 1) here = run.here[k];
            else here = sample(in, c, r + P, u0 + k + P + s);
            run.out_sum[j + k][c] = fmaf(w, here, run.out_sum[j + k][c]);
        }
    }
}

// Adds window entries 0 .. N - 1 to the accumulators from `at` on (planes
// `plane` floats apart) and clears them.
template <int N, int C, int K>
__device__ __forceinline__ void flush(float *at, int plane, Run<C, K> &run) {
#pragma unroll
    for (int e = 0; e < N; e++) {
        at[C * plane + e] += run.out_weight[e];
        run.out_weight[e] = 0;
#pragma unroll
        for (int c = 0; c < C; c++) {
            at[c * plane + e] += run.out_sum[e][c];
            run.out_sum[e][c] = 0;
        }
    }
}

// The window moves K targets right (its first K were flushed).
template <int C, int K>
__device__ __forceinline__ void slide(Run<C, K> &run) {
    constexpr int n = kRun + K - 1;
#pragma unroll
    for (int e = 0; e < n; e++) {
        run.out_weight[e] = e + K < n ? run.out_weight[e + K] : 0.0f;
#pragma unroll
        for (int c = 0; c < C; c++) run.out_sum[e][c] = e + K < n ? run.out_sum[e + K][c] : 0.0f;
    }
}

// Stages the tile's input (clamped) and fills the V buffers with kFar and
// the accumulators with 0; the caller synchronises.
template <int P, int C, typename Element>
__device__ __forceinline__ void stage(const Planes &img, const Layout &at, int x0, int y0, int s, int t,
                                      Element *staging, float *v_buffers, float *acc) {
#pragma unroll
    for (int c = 0; c < C; c++)
        for (int row = 0; row < at.staged_rows; row++) {
            const uint8_t *line = img.in[c] + clamp_index(y0 - P + row, img.height - 1) * img.in_pitch;
            for (int column = t; column < at.staged_pitch; column += kThreads)
                staging[c * at.staged_plane + row * at.staged_pitch + column] =
                    Element(line[clamp_index(x0 - P - s + column, img.width - 1)]);
        }
    for (int e = t; e < 2 * Shape<P>::v_floats; e += kThreads) v_buffers[e] = kFar;  // phase 1 writes columns < 128
    for (int e = t; e < (C + 1) * at.acc_plane; e += kThreads) acc[e] = 0;
}

// The run's forward accumulators start with the zero offset (block z = 0 only).
template <int P, int C, int K>
__device__ __forceinline__ void start_run(const Input<C> &in, int r, int u0, int s, bool upper, Run<C, K> &run) {
#pragma unroll
    for (int k = 0; k < kRun; k++) {
        run.weight[k] = upper ? 1.0f : 0.0f;  // the zero offset
#pragma unroll
        for (int c = 0; c < C; c++) {
            const float here = sample(in, c, r + P, u0 + k + P + s);
            run.sum[k][c] = upper ? here : 0.0f;
            if constexpr (C == 1) run.here[k] = here;
        }
    }
}

// One channel: the samples J(x + d) of phase 2 for a group of K offsets.
// From one offset of the group to the next the run's partners move one column
// right, so kRun + K - 1 loads serve the group's K x kRun terms, issued
// together ahead of them. Columns past the staged row belong to offsets past
// s: clamped, never used. (Three channels load each where used: a window a
// channel would take the registers of another block.)
template <int K>
__device__ __forceinline__ void load_there(const StagedFloats &in, int row, int column0, int last,
                                           float (&there)[kRun + K - 1]) {
#pragma unroll
    for (int e = 0; e < kRun + K - 1; e++) there[e] = in.value(0, row, min(column0 + e, last));
}

// Both phases for every offset of the block's rows dy (dy <= split if upper,
// else dy > split), flushing the backward window into the accumulators.
template <int P, int C, int K>
__device__ __forceinline__ void offsets(const Input<C> &in, const float (&center)[C == 1 ? kRows + 2 * P : 1],
                                        const Layout &at, int t, int r, int u0, int s, int split, bool upper,
                                        float scale, float *v_buffers, float *acc, Run<C, K> &run) {
    int parity = 0;
    for (int dy = upper ? 0 : split + 1; dy <= (upper ? split : s); dy++) {
        int first = dy == 0 ? 1 : -s;  // the group's first dx
        for (; first <= s; first += K) {
            float there[kRun + K - 1];
            if constexpr (C == 1) load_there<K>(in, r + P + dy, u0 + P + s + first, at.staged_pitch - 1, there);
#pragma unroll
            for (int j = 0; j < K; j++) {
                const int dx = first + j;
                if (dx <= s) {  // the same for the whole block (a break here costs registers)
                    float *v = v_buffers + parity * Shape<P>::v_floats;
                    column_sums<P, C, kRows, Shape<P>::v_pitch>(in, center, t, 0, s, dx, dy, v);
                    __syncthreads();
                    row_sums<P, C, K>(in, v, r, u0, s, dx, dy, j, scale, there, run);
                    parity ^= 1;
                }
            }
            // Targets (u0 + first + e, r + dy), e < K: no later offset of this dy reaches them.
            flush<K>(acc + (r + dy) * at.acc_pitch + u0 + first + s, at.acc_plane, run);
            slide(run);
        }
        __syncthreads();  // the other windows' flushes above overlap this one's rest
        flush<kRun - 1>(acc + (r + dy) * at.acc_pitch + u0 + first + s, at.acc_plane, run);
    }
}

// Adds the run's forward sums to the shared accumulators of its sources.
template <int P, int C, int K>
__device__ __forceinline__ void add_forward(const Layout &at, int r, int u0, int s, float *acc, const Run<C, K> &run) {
#pragma unroll
    for (int k = 0; k < kRun; k++) {
        if (u0 + k >= Shape<P>::width) continue;  // the next tile's source
        float *own = acc + r * at.acc_pitch + u0 + k + s;
        own[C * at.acc_plane] += run.weight[k];
#pragma unroll
        for (int c = 0; c < C; c++) own[c * at.acc_plane] += run.sum[k][c];
    }
}

template <int P, int C, int K>
__global__ void __launch_bounds__(kThreads, C == 1 ? 3 : 1)
    symmetric_kernel(Planes img, int s, int split, float scale, float *sums) {
    extern __shared__ float4 shared[];
    using Element = std::remove_cv_t<std::remove_pointer_t<decltype(Input<C>::data)>>;
    const Layout at(P, s, K, C);
    float *v_buffers = reinterpret_cast<float *>(shared);  // two V buffers
    float *acc = v_buffers + 2 * Shape<P>::v_floats;
    Element *staging = reinterpret_cast<Element *>(acc + (C + 1) * at.acc_plane);
    const Input<C> in{staging, at.staged_pitch, at.staged_plane};
    const int t = threadIdx.x;
    const int x0 = blockIdx.x * Shape<P>::width - s, y0 = blockIdx.y * kRows - s;  // the tile's first source

    stage<P, C>(img, at, x0, y0, s, t, staging, v_buffers, acc);
    __syncthreads();

    float center[C == 1 ? kRows + 2 * P : 1];  // phase 1: column t's samples
    if constexpr (C == 1) {
#pragma unroll
        for (int k = 0; k < kRows + 2 * P; k++) center[k] = in.value(0, k, t + s);
    }
    // Phase 2: row r, sources u0 .. u0 + 15 (tile columns).
    const int lane = t % 32, r = lane % kRows;
    const int u0 = kRun * (C == 1 ? 2 * (t / 32) + lane / kRows : t / 32 + 4 * (lane / kRows));
    // Block z of a tile takes the rows dy <= split (z = 0, with the zero offset) or dy > split.
    const bool upper = blockIdx.z == 0;
    Run<C, K> run;
    start_run<P>(in, r, u0, s, upper, run);
    offsets<P>(in, center, at, t, r, u0, s, split, upper, scale, v_buffers, acc, run);
    __syncthreads();
    add_forward<P>(at, r, u0, s, acc, run);
    __syncthreads();

    // The targets inside the image to the global sums. (Kept here: moved into a
    // helper, this loop gets unrolled twice instead of four times, 3-channel.)
    const std::size_t plane = std::size_t(img.width) * img.height;
    for (int e = t; e < at.acc_plane; e += kThreads) {
        const int x = x0 - s + e % at.acc_pitch, y = y0 + e / at.acc_pitch;
        const float weight = acc[C * at.acc_plane + e];
        if (x < 0 || x >= img.width || y < 0 || y >= img.height || weight == 0) continue;
        const std::size_t i = std::size_t(y) * img.width + x;
        atomicAdd(sums + C * plane + i, weight);
#pragma unroll
        for (int c = 0; c < C; c++) atomicAdd(sums + c * plane + i, acc[c * at.acc_plane + e]);
    }
}

template <int P, int C>
void launch(const Planes &img, const Params &prm, float *sums) {
    constexpr int K = C == 1 ? 4 : 2;  // offsets per window flush
    const Layout at(P, prm.search, K, C);
    const std::size_t bytes = (2 * Shape<P>::v_floats + std::size_t(C + 1) * at.acc_plane) * sizeof(float) +
                              std::size_t(C) * at.staged_plane * (C == 1 ? sizeof(float) : 1);
    cuda_check(cudaFuncSetAttribute(symmetric_kernel<P, C, K>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)),
               "cudaFuncSetAttribute (nlmeans symmetric_kernel)");
    // Sources from (-s, -s): backward terms reach s right and s down. Two
    // blocks per tile: rows dy <= split (s + split (2s + 1) offsets) and the
    // rest, about half each. At 1024^2: 1170 blocks, 2.95 waves of 3 blocks
    // on 132 SMs, where 585 would leave the second of 1.48 waves half empty;
    // the cost is one more flush per tile.
    const int s = prm.search, split = (2 * s * s + 2 * s + 1) / (2 * (2 * s + 1));
    const dim3 grid((img.width + 2 * s + Shape<P>::width - 1) / Shape<P>::width, (img.height + s + kRows - 1) / kRows,
                    split < s ? 2 : 1);
    // exp(-S * k) = 2^(-S * k * log2(e)): the prescaled argument of ex2.
    const float scale = static_cast<float>(-prm.inverse_scale * 1.4426950408889634);
    symmetric_kernel<P, C, K><<<grid, kThreads, bytes, stream()>>>(img, s, split, scale, sums);
    check_launch("nlmeans symmetric_kernel");
}

template <int... P>
void dispatch(const Planes &img, const Params &prm, float *sums, std::integer_sequence<int, P...>) {
    using Launch = void (*)(const Planes &, const Params &, float *);
    static constexpr Launch gray[] = {&launch<P, 1>...}, rgb[] = {&launch<P, 3>...};
    (img.channels == 1 ? gray : rgb)[prm.patch](img, prm, sums);
}

void run(const PlanarView &in, const PlanarView &out, const ParamValues &values) {
    const Planes img = planes(in, out);
    const Params prm = params(values, in.channels);
    if (img.channels != 1 && img.channels != 3) throw Error("nlmeans hw_symmetric takes 1 or 3 channels");
    if (prm.patch < kNlmeansMinPatch || prm.patch > kMaxPatch)
        throw Error("nlmeans hw_symmetric takes patch " + std::to_string(kNlmeansMinPatch) + " to " +
                    std::to_string(kMaxPatch));
    Scratch<float> sums(std::size_t(img.channels + 1) * img.width * img.height);  // zeroed
    dispatch(img, prm, sums.get(), std::make_integer_sequence<int, kMaxPatch + 1>());
    normalise(img, sums.get());
    sums.release();
}

const VariantRegistration symmetric{
    with_algorithm({"nlmeans", "hw_symmetric", Backend::cuda, Kind::handwritten, {}, run}, "symmetric")};

}  // namespace
}  // namespace filterlab::handwritten::nlmeans
