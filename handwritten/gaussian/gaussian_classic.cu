// The classic 5x5 Gaussian kernels of TECHNIQUES.md, exact under FILTERS.md
// (clamp border, the contract's integer weights, (sum + 32768) >> 16).
// Gold: reference::gaussian.
#include <array>

#include "plane.h"
#include "reference.h"
#include "registry.h"

namespace filterlab::handwritten {
namespace {

struct Weights {
    int w[5];  // w_-2 .. w_2
};

__device__ inline uint8_t round_shift(uint32_t sum) { return static_cast<uint8_t>((sum + 32768u) >> 16); }

// 1. The direct double loop over the 25 weights, one thread per output.
__global__ void direct_kernel(Plane p, Weights k) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    uint32_t sum = 0;
    for (int i = -2; i <= 2; i++) {
        const uint8_t *row = p.in + clamp_index(y + i, p.height - 1) * p.in_pitch;
        for (int j = -2; j <= 2; j++) sum += k.w[i + 2] * k.w[j + 2] * row[clamp_index(x + j, p.width - 1)];
    }
    p.out[y * p.out_pitch + x] = round_shift(sum);
}

// 2. The loop fully unrolled with the weights as constants: sigma = 1 only,
// whose weights are [14, 63, 102, 63, 14].
__global__ void unrolled_sigma1_kernel(Plane p) {
    constexpr uint32_t w[5] = {14, 63, 102, 63, 14};
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    uint32_t sum = 0;
#pragma unroll
    for (int i = -2; i <= 2; i++) {
        const uint8_t *row = p.in + clamp_index(y + i, p.height - 1) * p.in_pitch;
#pragma unroll
        for (int j = -2; j <= 2; j++) sum += w[i + 2] * w[j + 2] * row[clamp_index(x + j, p.width - 1)];
    }
    p.out[y * p.out_pitch + x] = round_shift(sum);
}

// 3. A lookup table: the 5x5 kernel has six distinct products w_i w_j
// (|i|, |j| in {0, 1, 2}), so a 6 x 256 table of product x sample, built per
// block in shared memory, replaces every multiplication.
__device__ inline int product_class(int i, int j) {  // i, j in 0..2 (absolute offsets)
    const int lo = min(i, j), hi = max(i, j);
    return lo == 0 ? hi : (lo == 1 ? 2 + hi : 5);  // (0,0) (0,1) (0,2) (1,1) (1,2) (2,2)
}

__global__ void lut_kernel(Plane p, Weights k) {
    __shared__ uint32_t table[6][256];
    const int t = threadIdx.y * blockDim.x + threadIdx.x;
    for (int e = t; e < 6 * 256; e += blockDim.x * blockDim.y) {
        const int cls = e / 256, v = e % 256;
        const int a = cls < 3 ? 0 : (cls < 5 ? 1 : 2), b = cls < 3 ? cls : (cls < 5 ? cls - 2 : 2);
        table[cls][v] = static_cast<uint32_t>(k.w[2 + a] * k.w[2 + b] * v);
    }
    __syncthreads();
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    uint32_t sum = 0;
#pragma unroll
    for (int i = -2; i <= 2; i++) {
        const uint8_t *row = p.in + clamp_index(y + i, p.height - 1) * p.in_pitch;
#pragma unroll
        for (int j = -2; j <= 2; j++) sum += table[product_class(abs(i), abs(j))][row[clamp_index(x + j, p.width - 1)]];
    }
    p.out[y * p.out_pitch + x] = round_shift(sum);
}

Weights weights_for(const ParamValues &params) {
    const std::array<int, 5> w = reference::gaussian_weights(params.at("sigma"));
    return {{w[0], w[1], w[2], w[3], w[4]}};
}

dim3 grid_for(const Plane &p) { return dim3((p.width + 31) / 32, (p.height + 7) / 8); }
const dim3 kBlock(32, 8);

void run_direct(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    const Weights w = weights_for(params);
    for_each_plane(in, out, "gaussian direct_kernel",
                   [&](const Plane &p) { direct_kernel<<<grid_for(p), kBlock, 0, stream()>>>(p, w); });
}

void run_unrolled(const PlanarView &in, const PlanarView &out, const ParamValues &) {
    for_each_plane(in, out, "gaussian unrolled_sigma1_kernel",
                   [](const Plane &p) { unrolled_sigma1_kernel<<<grid_for(p), kBlock, 0, stream()>>>(p); });
}

void run_lut(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    const Weights w = weights_for(params);
    for_each_plane(in, out, "gaussian lut_kernel", [&](const Plane &p) { lut_kernel<<<grid_for(p), kBlock, 0, stream()>>>(p, w); });
}

const VariantRegistration direct{
    with_algorithm({"gaussian", "hw_direct", Backend::cuda, Kind::handwritten, {}, run_direct}, "direct")};
const VariantRegistration unrolled{
    with_algorithm({"gaussian", "hw_unrolled", Backend::cuda, Kind::handwritten, parse_supports("sigma=1"), run_unrolled}, "direct")};
const VariantRegistration lut{
    with_algorithm({"gaussian", "hw_lut", Backend::cuda, Kind::handwritten, {}, run_lut}, "direct")};

}  // namespace
}  // namespace filterlab::handwritten
