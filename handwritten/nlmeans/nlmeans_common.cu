// The normalisation shared by the integral-image kernels (nlmeans_common.cuh).
#include "nlmeans_common.cuh"

namespace filterlab::handwritten::nlmeans {
namespace {

// C a template argument: p.out[c] indexed by a loop counter the compiler
// cannot unroll makes every thread copy the whole parameter struct to local
// memory, more bytes than the pixel's own.
template <int C>
__global__ void normalise_kernel(Planes p, const float *accum) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    const std::size_t plane = std::size_t(p.width) * p.height, i = std::size_t(y) * p.width + x;
    const float denominator = accum[C * plane + i];  // at least 1: the zero offset weighs exp(0)
#pragma unroll
    for (int c = 0; c < C; c++) {
        const float u = fminf(fmaxf(accum[c * plane + i] / denominator, 0.0f), 255.0f);
        p.out[c][y * p.out_pitch + x] = static_cast<uint8_t>(floorf(u + 0.5f));
    }
}

}  // namespace

void normalise(const Planes &p, const float *accum) {
    const dim3 block(32, 8);
    const dim3 grid = pixel_grid(p.width, p.height, block);
    static_assert(kMaxChannels == 3, "a kernel for each channel count");
    static constexpr void (*kernel[])(Planes, const float *) = {normalise_kernel<1>, normalise_kernel<2>,
                                                                normalise_kernel<3>};
    kernel[p.channels - 1]<<<grid, block, 0, stream()>>>(p, accum);  // planes() took 1 to kMaxChannels
    check_launch("nlmeans normalise_kernel");
}

}  // namespace filterlab::handwritten::nlmeans
