// The normalisation shared by the integral-image kernels (nlmeans_common.cuh).
#include "nlmeans_common.cuh"

namespace filterlab::handwritten::nlmeans {
namespace {

__global__ void normalise_kernel(Planes p, const float *accum) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    const std::size_t plane = std::size_t(p.width) * p.height, i = std::size_t(y) * p.width + x;
    const float denominator = accum[p.channels * plane + i];  // at least 1: the zero offset weighs exp(0)
    for (int c = 0; c < p.channels; c++) {
        const float u = fminf(fmaxf(accum[c * plane + i] / denominator, 0.0f), 255.0f);
        p.out[c][y * p.out_pitch + x] = static_cast<uint8_t>(floorf(u + 0.5f));
    }
}

}  // namespace

void normalise(const Planes &p, const float *accum) {
    const dim3 block(32, 8);
    normalise_kernel<<<pixel_grid(p.width, p.height, block), block, 0, stream()>>>(p, accum);
    check_launch("nlmeans normalise_kernel");
}

}  // namespace filterlab::handwritten::nlmeans
