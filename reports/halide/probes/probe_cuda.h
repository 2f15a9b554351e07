// What the GPU harnesses of the Halide probes share (probe_time.cpp for the
// box probes, nlmeans_time.cpp for NL-means'): CUDA error checks, the Halide
// runtime on the primary context, a device image, and the timing loop
// (CUDA events, 5 warm-up runs, 41 timed, sorted: [20] the median, [10] and
// [30] the interquartile range).
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <HalideRuntime.h>
#include <HalideRuntimeCuda.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK_CUDA(call)                                                                   \
    do {                                                                                   \
        cudaError_t e = (call);                                                            \
        if (e != cudaSuccess) {                                                            \
            std::fprintf(stderr, "probe: %s: %s\n", #call, cudaGetErrorString(e));         \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

namespace probe {

inline CUcontext primary;
inline int acquire(void *, void **ctx, bool) { *ctx = primary; return 0; }
inline int release(void *) { return 0; }

// The Halide runtime runs on the CUDA runtime's primary context, so that the
// harness's cudaMalloc'd buffers are the pipelines' own.
inline void use_primary_context() {
    CHECK_CUDA(cudaFree(nullptr));
    if (cuCtxGetCurrent(&primary) != CUDA_SUCCESS) std::exit(1);
    halide_set_cuda_acquire_context(acquire);
    halide_set_cuda_release_context(release);
}

// A w x h gray image on the device, rows padded to 64 bytes, seen by Halide
// as bytes or (words) as 32-bit words over the padded row.
struct Image {
    int w, h, pitch;  // pitch: bytes
    uint8_t *device = nullptr;
    halide_buffer_t buf{};
    halide_dimension_t dims[2];
    Image(int w_, int h_, bool words) : w(w_), h(h_), pitch((w_ + 63) / 64 * 64) {
        CHECK_CUDA(cudaMalloc(&device, size_t(pitch) * h));
        const int unit = words ? 4 : 1;
        dims[0] = {0, words ? pitch / 4 : w, 1};
        dims[1] = {0, h, pitch / unit};
        buf.type = halide_type_t(halide_type_uint, uint8_t(8 * unit));
        buf.dimensions = 2;
        buf.dim = dims;
        buf.device = reinterpret_cast<uint64_t>(device);
        buf.device_interface = halide_cuda_device_interface();
    }
    ~Image() { cudaFree(device); }
    Image(const Image &) = delete;
    Image &operator=(const Image &) = delete;
};

// The sorted times (ms) of 41 runs of `run` after 5 warm-up ones; a run
// returning non-zero (a Halide error) ends the harness.
template <typename Run>
std::vector<float> times_ms(Run run) {
    cudaEvent_t a, b;
    CHECK_CUDA(cudaEventCreate(&a));
    CHECK_CUDA(cudaEventCreate(&b));
    for (int i = 0; i < 5; i++) run();
    std::vector<float> ms;
    for (int i = 0; i < 41; i++) {
        CHECK_CUDA(cudaEventRecord(a));
        if (run()) std::exit(1);
        CHECK_CUDA(cudaEventRecord(b));
        CHECK_CUDA(cudaEventSynchronize(b));
        float t;
        CHECK_CUDA(cudaEventElapsedTime(&t, a, b));
        ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    return ms;
}

}  // namespace probe
