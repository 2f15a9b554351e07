// The classic median kernels of TECHNIQUES.md, exact under FILTERS.md (clamp
// border instead of padding the image). Gold: reference::median.
#include <algorithm>

#include "plane.h"
#include "median_sizes.h"
#include "registry.h"

namespace filterlab::handwritten {
namespace {

// 1. One thread per output in 16x16 blocks: gather the K x K window, bubble-sort it.
template <int K>
__global__ void bubble_kernel(Plane p) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    uint8_t window[K * K];
    int n = 0;
    for (int j = -K / 2; j <= K / 2; j++) {
        const uint8_t *row = p.in + clamp_index(y + j, p.height - 1) * p.in_pitch;
        for (int i = -K / 2; i <= K / 2; i++) window[n++] = row[clamp_index(x + i, p.width - 1)];
    }
    for (int pass = 0; pass < K * K - 1; pass++)
        for (int i = 0; i < K * K - 1 - pass; i++)
            if (window[i] > window[i + 1]) {
                const uint8_t t = window[i];
                window[i] = window[i + 1];
                window[i + 1] = t;
            }
    p.out[y * p.out_pitch + x] = window[K * K / 2];
}

// 2. The fast 3x3 kernel: 1-D blocks of 128 threads along x, one row each.
// Every thread reads its column's 3 samples through the read-only (texture)
// path, sorts them, and shares the sorted column through shared memory;
// threads 0 and 127 only load (the halo); the others take the maximum of the
// column minima, the median of the medians and the minimum of the maxima,
// whose median is the answer.
constexpr int kBlock = 128;

__device__ inline void sort2(uint32_t &a, uint32_t &b) {
    const uint32_t lo = min(a, b);
    b = max(a, b);
    a = lo;
}
__device__ inline uint32_t median3(uint32_t a, uint32_t b, uint32_t c) { return max(min(a, b), min(max(a, b), c)); }

__global__ void fast3x3_kernel(Plane p) {
    __shared__ uint8_t lo[kBlock], mid[kBlock], hi[kBlock];
    const int t = threadIdx.x;
    const int x = blockIdx.x * (kBlock - 2) + t - 1;  // thread 0 holds column x0 - 1
    const int cx = clamp_index(x, p.width - 1);
    // One row per block; the grid's y is capped at 65535, so blocks stride down.
    for (int y = blockIdx.y; y < p.height; y += gridDim.y) {
        uint32_t a = __ldg(p.in + clamp_index(y - 1, p.height - 1) * p.in_pitch + cx);
        uint32_t b = __ldg(p.in + y * p.in_pitch + cx);
        uint32_t c = __ldg(p.in + clamp_index(y + 1, p.height - 1) * p.in_pitch + cx);
        sort2(a, b);
        sort2(b, c);
        sort2(a, b);
        __syncthreads();  // the previous row's columns are no longer read
        lo[t] = a;
        mid[t] = b;
        hi[t] = c;
        __syncthreads();
        if (t == 0 || t == kBlock - 1 || x >= p.width) continue;
        const uint32_t max_of_min = max(max(lo[t - 1], lo[t]), lo[t + 1]);
        const uint32_t med_of_med = median3(mid[t - 1], mid[t], mid[t + 1]);
        const uint32_t min_of_max = min(min(hi[t - 1], hi[t]), hi[t + 1]);
        p.out[y * p.out_pitch + x] = static_cast<uint8_t>(median3(max_of_min, med_of_med, min_of_max));
    }
}

template <int K>
void launch_bubble(const Plane &p) {
    bubble_kernel<K><<<dim3((p.width + 15) / 16, (p.height + 15) / 16), dim3(16, 16), 0, stream()>>>(p);
}

void run_bubble(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    const int k = static_cast<int>(params.at("size"));
    for_each_plane(in, out, "median bubble_kernel", [&](const Plane &p) {
        with_median_size(k, [&](auto size) { launch_bubble<decltype(size)::value>(p); });
    });
}

void run_fast3x3(const PlanarView &in, const PlanarView &out, const ParamValues &) {
    for_each_plane(in, out, "median fast3x3_kernel", [](const Plane &p) {
        fast3x3_kernel<<<dim3((p.width + kBlock - 3) / (kBlock - 2), std::min(p.height, 65535)), kBlock, 0, stream()>>>(p);
    });
}

const VariantRegistration bubble{
    {"median", "hw_bubble", Backend::cuda, Kind::handwritten, {}, run_bubble}};
const VariantRegistration fast3x3{
    {"median", "hw_fast3x3", Backend::cuda, Kind::handwritten, parse_supports("size=3"), run_fast3x3}};

}  // namespace
}  // namespace filterlab::handwritten
