// 2x2 max pooling, stride 2 (FILTERS.md): the naive kernel, a vectorised
// one and a streaming one. Gold: reference::maxpool. The harness gives the output floor(W/2) x
// floor(H/2); a last odd input column or row is never read.
#include "plane.h"
#include "registry.h"
#include "pool_word.cuh"
#include "strip_words.cuh"

namespace filterlab::handwritten {
namespace {

// Output size of a plane (the input's in p.width/p.height).
struct Pool {
    Plane p;
    int out_width, out_height;
};

// 1. One thread per output, four byte loads, a tree of two maxima.
__global__ void naive_kernel(Pool q) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= q.out_width || y >= q.out_height) return;
    const uint8_t *top = q.p.in + 2 * y * q.p.in_pitch + 2 * x, *bottom = top + q.p.in_pitch;
    q.p.out[y * q.p.out_pitch + x] = max(max(top[0], top[1]), max(bottom[0], bottom[1]));
}

// 2. Each thread: 16 outputs of one row from two 32-byte reads (two 16-byte
// loads per input row), one 16-byte store (pool_word.cuh).
__global__ void vectorized_kernel(Pool q) {
    const int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * 16;  // first output column
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x0 >= q.out_width || y >= q.out_height) return;
    // 2 * x0 < width: the 32 input bytes lie inside the row's 64-byte padding.
    const uint8_t *top = q.p.in + 2 * y * q.p.in_pitch + 2 * x0, *bottom = top + q.p.in_pitch;
    const uint4 t0 = *reinterpret_cast<const uint4 *>(top), t1 = *reinterpret_cast<const uint4 *>(top + 16);
    const uint4 b0 = *reinterpret_cast<const uint4 *>(bottom), b1 = *reinterpret_cast<const uint4 *>(bottom + 16);
    const uint32_t out[4] = {pool_word(t0.x, b0.x) | pool_word(t0.y, b0.y) << 16,
                             pool_word(t0.z, b0.z) | pool_word(t0.w, b0.w) << 16,
                             pool_word(t1.x, b1.x) | pool_word(t1.y, b1.y) << 16,
                             pool_word(t1.z, b1.z) | pool_word(t1.w, b1.w) << 16};
    store_strip(q.p.out + y * q.p.out_pitch + x0, x0, q.out_width, out);
}

// 3. Streaming: every load instruction of a warp reads 512 contiguous bytes
// (lane i the 16 bytes at 16i, then at 512 + 16i; kernel 2's lanes stride 32
// bytes, so each of its loads touches twice the sectors it uses), each thread
// pools kOutRows output rows with all its 4 * kOutRows loads issued before the
// first maximum (more bytes in flight per thread, to cover DRAM latency), and
// the loads and stores are marked streaming (__ldcs/__stcs: read once,
// written once, so they need not stay in L1/L2).
constexpr int kOutRows = 2;

__device__ inline void store_pooled(uint8_t *row, int ox, int out_width, uint2 v) {
    if (ox + 8 <= out_width) {
        __stcs(reinterpret_cast<uint2 *>(row + ox), v);  // ox is a multiple of 8
    } else {
        for (int i = 0; ox + i < out_width; i++) row[ox + i] = static_cast<uint8_t>((i < 4 ? v.x : v.y) >> (8 * (i % 4)));
    }
}

__global__ void streaming_kernel(Pool q) {
    const int lane = threadIdx.x;
    const int x_in = blockIdx.x * 1024 + 16 * lane;  // first input column of the lane's first chunk
    const int y0 = (blockIdx.y * blockDim.y + threadIdx.y) * kOutRows;
    const int in_width = 2 * q.out_width;
    uint4 chunk[kOutRows][2][2];  // [output row][top, bottom][first, second chunk]
#pragma unroll
    for (int r = 0; r < kOutRows; r++)
#pragma unroll
        for (int b = 0; b < 2; b++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int x = x_in + 512 * h;
                const bool inside = y0 + r < q.out_height && x < in_width;  // rows padded to 64 bytes
                const uint8_t *src = q.p.in + (2 * (y0 + r) + b) * q.p.in_pitch + x;
                chunk[r][b][h] = inside ? __ldcs(reinterpret_cast<const uint4 *>(src)) : make_uint4(0, 0, 0, 0);
            }
#pragma unroll
    for (int r = 0; r < kOutRows; r++) {
        if (y0 + r >= q.out_height) break;
        uint8_t *row = q.p.out + (y0 + r) * q.p.out_pitch;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const uint4 t = chunk[r][0][h], b = chunk[r][1][h];
            const int ox = (x_in + 512 * h) / 2;
            if (ox < q.out_width)
                store_pooled(row, ox, q.out_width,
                             make_uint2(pool_word(t.x, b.x) | pool_word(t.y, b.y) << 16,
                                        pool_word(t.z, b.z) | pool_word(t.w, b.w) << 16));
        }
    }
}

void run_naive(const PlanarView &in, const PlanarView &out, const ParamValues &) {
    for_each_plane(in, out, "maxpool naive_kernel", [&](const Plane &p) {
        naive_kernel<<<dim3((out.width + 31) / 32, (out.height + 7) / 8), dim3(32, 8), 0, stream()>>>(Pool{p, out.width, out.height});
    });
}

void run_vectorized(const PlanarView &in, const PlanarView &out, const ParamValues &) {
    const int strips = (out.width + 15) / 16;
    for_each_plane(in, out, "maxpool vectorized_kernel", [&](const Plane &p) {
        vectorized_kernel<<<dim3((strips + 31) / 32, (out.height + 7) / 8), dim3(32, 8), 0, stream()>>>(Pool{p, out.width, out.height});
    });
}

void run_streaming(const PlanarView &in, const PlanarView &out, const ParamValues &) {
    constexpr int kWarps = 8;
    for_each_plane(in, out, "maxpool streaming_kernel", [&](const Plane &p) {
        const dim3 grid((2 * out.width + 1023) / 1024, (out.height + kWarps * kOutRows - 1) / (kWarps * kOutRows));
        streaming_kernel<<<grid, dim3(32, kWarps), 0, stream()>>>(Pool{p, out.width, out.height});
    });
}

const VariantRegistration naive{{"maxpool", "hw_naive", Backend::cuda, Kind::handwritten, {}, run_naive}};
const VariantRegistration vectorized{
    {"maxpool", "hw_vectorized", Backend::cuda, Kind::handwritten, {}, run_vectorized}};
const VariantRegistration streaming{
    {"maxpool", "hw_streaming", Backend::cuda, Kind::handwritten, {}, run_streaming}};

}  // namespace
}  // namespace filterlab::handwritten
