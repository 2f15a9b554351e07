#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cuda_errors.h"
#include "cuda_support.h"
#include "error.h"

namespace filterlab::cuda {
namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

template <typename F>
double median_ms(int reps, F &&once) {
    EventTimer timer;
    once();  // warm-up
    std::vector<double> times;
    for (int i = 0; i < reps; i++) {
        timer.start();
        once();
        times.push_back(timer.stop_ms());
    }
    return median(times);
}

}  // namespace

EventTimer::EventTimer() {
    require_gpu();
    cuda_check(cudaEventCreate(reinterpret_cast<cudaEvent_t *>(&start_)), "cudaEventCreate");
    cuda_check(cudaEventCreate(reinterpret_cast<cudaEvent_t *>(&stop_)), "cudaEventCreate");
}

EventTimer::~EventTimer() {
    cudaEventDestroy(static_cast<cudaEvent_t>(start_));
    cudaEventDestroy(static_cast<cudaEvent_t>(stop_));
}

void EventTimer::start() { cuda_check(cudaEventRecord(static_cast<cudaEvent_t>(start_), 0), "cudaEventRecord"); }

double EventTimer::stop_ms() {
    cuda_check(cudaEventRecord(static_cast<cudaEvent_t>(stop_), 0), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(static_cast<cudaEvent_t>(stop_)), "the timed work");
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start_), static_cast<cudaEvent_t>(stop_)),
          "cudaEventElapsedTime");
    return ms;
}

double copy_bandwidth_gbps(std::size_t bytes, int reps) {
    void *a = nullptr, *b = nullptr;
    cuda_check(cudaMalloc(&a, bytes), "cudaMalloc");
    if (cudaMalloc(&b, bytes) != cudaSuccess) {
        cudaFree(a);
        cuda_check(cudaErrorMemoryAllocation, "cudaMalloc");
    }
    cudaMemset(a, 1, bytes);
    double ms = 0;
    try {
        ms = median_ms(reps, [&] { cuda_check(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy"); });
    } catch (...) {
        cudaFree(a);
        cudaFree(b);
        throw;
    }
    cudaFree(a);
    cudaFree(b);
    return 2.0 * bytes / (ms * 1e6);
}

TransferTimes transfer_times(std::size_t bytes, int reps) {
    TransferTimes t{};
    std::vector<uint8_t> pageable(bytes, 1);
    void *pinned = nullptr, *device = nullptr;
    cuda_check(cudaMallocHost(&pinned, bytes), "cudaMallocHost");
    if (cudaMalloc(&device, bytes) != cudaSuccess) {
        cudaFreeHost(pinned);
        cuda_check(cudaErrorMemoryAllocation, "cudaMalloc");
    }
    auto copy = [&](void *dst, const void *src, cudaMemcpyKind kind) {
        return median_ms(reps, [&] { cuda_check(cudaMemcpy(dst, src, bytes, kind), "cudaMemcpy"); });
    };
    t.h2d_pageable = copy(device, pageable.data(), cudaMemcpyHostToDevice);
    t.d2h_pageable = copy(pageable.data(), device, cudaMemcpyDeviceToHost);
    t.h2d_pinned = copy(device, pinned, cudaMemcpyHostToDevice);
    t.d2h_pinned = copy(pinned, device, cudaMemcpyDeviceToHost);
    cudaFreeHost(pinned);
    cudaFree(device);
    return t;
}

Clocks current_clocks() {
    // NVML's C API, the few entry points needed (nvml.h): init, handle, clock.
    using Init = int (*)();
    using Handle = int (*)(unsigned, void **);
    using Clock = int (*)(void *, int, unsigned *);
    static void *nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW);
    Clocks c;
    if (!nvml) return c;
    static const bool ready = [] {
        auto init = reinterpret_cast<Init>(dlsym(nvml, "nvmlInit_v2"));
        return init && init() == 0;
    }();
    auto handle_of = reinterpret_cast<Handle>(dlsym(nvml, "nvmlDeviceGetHandleByIndex_v2"));
    auto clock_of = reinterpret_cast<Clock>(dlsym(nvml, "nvmlDeviceGetClockInfo"));
    void *device = nullptr;
    if (!ready || !handle_of || !clock_of || handle_of(0, &device) != 0) return c;
    unsigned mhz = 0;
    if (clock_of(device, 1 /* NVML_CLOCK_SM */, &mhz) == 0) c.sm_mhz = static_cast<int>(mhz);
    if (clock_of(device, 2 /* NVML_CLOCK_MEM */, &mhz) == 0) c.memory_mhz = static_cast<int>(mhz);
    return c;
}

std::size_t free_memory_bytes() {
    std::size_t free = 0, total = 0;
    cuda_check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    return free;
}

}  // namespace filterlab::cuda
