// Our best Gaussian kernel: separable, 16-byte loads and stores, 16 x ROWS
// outputs per thread, packed arithmetic (gaussian_strips.cuh). The halo is
// exchanged through warp shuffles rather than shared memory: a lane's
// neighbours already hold it in registers, and a shuffle costs no barrier
// and no shared-memory round trip. Gold: reference::gaussian.
#include "gaussian_strips.cuh"

namespace filterlab::handwritten {
namespace {

constexpr int kWarps = 4;  // 128 threads a block

template <int ROWS, int AHEAD>
__global__ void __launch_bounds__(32 * kWarps) separable_kernel(Plane p, GaussianWeights k) {
    const int lane = threadIdx.x;
    const int x0 = (blockIdx.x * 32 + lane) * 16;
    const int y0 = (blockIdx.y * kWarps + threadIdx.y) * ROWS;
    if (y0 >= p.height) return;  // the whole warp: its lanes share y0
    blur_strip<ROWS, AHEAD>(p, x0, y0, lane, k, [&](int y, const uint32_t (&words)[4]) {
        if (x0 < p.width) store_strip(p.out + y * p.out_pitch + x0, x0, p.width, words);
    });
}

template <int ROWS, int AHEAD>
void run(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    const GaussianWeights k = strip_weights(params);
    for_each_plane(in, out, "gaussian separable_kernel", [&](const Plane &p) {
        const dim3 grid((p.width + 32 * 16 - 1) / (32 * 16), (p.height + kWarps * ROWS - 1) / (kWarps * ROWS));
        separable_kernel<ROWS, AHEAD><<<grid, dim3(32, kWarps), 0, stream()>>>(p, k);
    });
}

// Why 4 rows a thread with every load issued up front: the kernel is bound by
// its arithmetic (two horizontal passes per input row, a vertical pass on
// unpacked 32-bit lanes), not by memory or occupancy. More rows filter fewer
// halo rows twice but need more registers and so fewer blocks per SM; a
// register cap buys blocks it does not need; loads issued later leave their
// latency exposed. None of those shapes gains, so the simplest one stays.
const VariantRegistration separable{{"gaussian", "hw_separable", Backend::cuda, Kind::handwritten, {}, run<4, 8>}};

}  // namespace
}  // namespace filterlab::handwritten
