// 2x2 max pooling, stride 2 (FILTERS.md): the naive kernel and a vectorised
// one. Gold: reference::maxpool. The harness gives the output floor(W/2) x
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

const VariantRegistration naive{{"maxpool", "hw_naive", Backend::cuda, Kind::handwritten, {}, run_naive}};
const VariantRegistration vectorized{
    {"maxpool", "hw_vectorized", Backend::cuda, Kind::handwritten, {}, run_vectorized}};

}  // namespace
}  // namespace filterlab::handwritten
