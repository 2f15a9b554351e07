// Gaussian then 2x2 max pooling by hand: one fused kernel, and the two stages
// run separately for comparison. Gold: reference::maxpool(reference::gaussian).
#include "cuda_support.h"
#include "gaussian/gaussian_strips.cuh"
#include "maxpool/pool_word.cuh"
#include "scratch.cuh"

namespace filterlab::handwritten {
namespace {

constexpr int kWarps = 4;  // 128 threads a block
constexpr int kRows = 4;   // blurred rows per thread: two pooled rows

// Fused: each thread blurs a 16 x kRows strip in registers (as hw_separable
// does) and pools each pair of blurred rows as soon as it has them, storing 8
// pooled pixels with one 8-byte store. The blurred image never exists in
// memory: the kernel reads the input once and writes a quarter of it.
__global__ void __launch_bounds__(32 * kWarps) fused_kernel(Plane p, int out_width, int out_height,
                                                           GaussianWeights k) {
    const int lane = threadIdx.x;
    const int x0 = (blockIdx.x * 32 + lane) * 16;
    const int y0 = (blockIdx.y * kWarps + threadIdx.y) * kRows;  // even
    if (y0 >= 2 * out_height) return;  // the whole warp: its lanes share y0
    uint32_t top[4];
    blur_strip<kRows, kRows + 4>(p, x0, y0, lane, k, [&](int y, const uint32_t (&words)[4]) {
        if (y % 2 == 0) {
#pragma unroll
            for (int j = 0; j < 4; j++) top[j] = words[j];
            return;
        }
        const int ox = x0 / 2, oy = y / 2;
        if (oy >= out_height || ox >= out_width) return;
        const uint32_t lo = pool_word(top[0], words[0]) | pool_word(top[1], words[1]) << 16;
        const uint32_t hi = pool_word(top[2], words[2]) | pool_word(top[3], words[3]) << 16;
        uint8_t *dst = p.out + oy * p.out_pitch + ox;
        if (ox + 8 <= out_width) {
            *reinterpret_cast<uint2 *>(dst) = make_uint2(lo, hi);  // ox is a multiple of 8
        } else {
            for (int i = 0; i < out_width - ox; i++) dst[i] = static_cast<uint8_t>((i < 4 ? lo : hi) >> (8 * (i % 4)));
        }
    });
}

void run_fused(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    const GaussianWeights k = strip_weights(params);
    for_each_plane(in, out, "gaussian_maxpool fused_kernel", [&](const Plane &p) {
        const int rows = 2 * out.height;
        const dim3 grid((p.width + 32 * 16 - 1) / (32 * 16), (rows + kWarps * kRows - 1) / (kWarps * kRows));
        fused_kernel<<<grid, dim3(32, kWarps), 0, stream()>>>(p, out.width, out.height, k);
    });
}

// Two stages: our best Gaussian kernel into a device image, then our best
// pooling kernel from it — the registered variants themselves, so this is
// exactly "the two stages run separately". The intermediate belongs to the
// call, stream-ordered (scratch.cuh): calls on other threads and streams each
// have their own, and after the first call the stream's memory pool serves it
// without a synchronisation.
void run_two_stage(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    ScratchImage blurred(in.width, in.height, in.channels);  // zeroed: the pooling kernel's vector loads read the padding
    find_variant("gaussian", "hw_separable").run(in, blurred.view(), params);
    find_variant("maxpool", "hw_vectorized").run(blurred.view(), out, {});
    blurred.release();
}

const VariantRegistration fused{
    {"gaussian_maxpool", "hw_fused", Backend::cuda, Kind::handwritten, {}, run_fused}};
const VariantRegistration two_stage{
    {"gaussian_maxpool", "hw_two_stage", Backend::cuda, Kind::handwritten, {}, run_two_stage}};

}  // namespace
}  // namespace filterlab::handwritten
