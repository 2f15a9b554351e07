// The GPU side of the harness, behind a header free of CUDA types so that
// plain C++ code can use it. Every CUDA call is checked; failures throw Error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "device_image.h"

namespace filterlab::cuda {

struct GpuInfo {
    bool available = false;
    std::string why_not;  // when not available
    std::string name;
    int device_count = 0;  // visible devices; the rest describes device 0
    int sm_count = 0, compute_major = 0, compute_minor = 0;
    std::size_t memory_bytes = 0, l2_bytes = 0;
    int driver_version = 0, runtime_version = 0;  // e.g. 13000
    int sm_clock_mhz = 0, memory_clock_mhz = 0;
};

// Probed once; never throws.
const GpuInfo &gpu_info();
// Throws Error("no GPU: ...") when no usable GPU is present.
void require_gpu();
// The primary context (a CUcontext) of the calling thread's current device
// (device 0 unless a DeviceScope chose another), shared with Halide's CUDA
// runtime, which asks for it at each call: a Halide variant runs on the
// device of the thread that calls it.
void *primary_context();
// The devices a process may use (CUDA_VISIBLE_DEVICES's); 0 without a GPU.
int device_count();
// Makes `device` the calling thread's current device for the scope's length
// (cudaSetDevice), then the one before; throws Error for a device not visible.
class DeviceScope {
public:
    explicit DeviceScope(int device);
    ~DeviceScope();
    DeviceScope(const DeviceScope &) = delete;
    DeviceScope &operator=(const DeviceScope &) = delete;

private:
    int previous_;
};
void synchronize(const char *what);  // cudaDeviceSynchronize + error check
// Whether an earlier error left this process's CUDA context unusable (asked
// after a failure that did not come from a CUDA runtime call of ours, such as
// one inside Halide's runtime); then the text that says so.
bool gpu_state_lost();
const char *gpu_state_lost_note();

// The CUDA stream (a cudaStream_t) that CUDA variants issue their work on, per
// thread: the legacy default stream (nullptr) unless a StreamScope names
// another, as the public API does for a caller's stream.
void *current_stream();
class StreamScope {
public:
    explicit StreamScope(void *stream);
    ~StreamScope();
    StreamScope(const StreamScope &) = delete;
    StreamScope &operator=(const StreamScope &) = delete;

private:
    void *previous_;
};

// FilterLab's stream-ordered memory pool (a cudaMemPool_t of the current device) for the
// scratch memory of one call (cudaMallocFromPoolAsync / cudaFreeAsync on the
// call's stream). It keeps what is freed (its release threshold is unbounded),
// so a call's scratch after the first is served without mapping memory again:
// timed runs do not pay for it. Its own pool, not the device's default one,
// whose settings belong to the program that links the library.
void *scratch_pool();

// Page-locked host memory (cudaHostAlloc), so copies run by DMA at the bus's
// rate with no staging through a driver buffer, and overlap kernels.
class PinnedBuffer {
public:
    explicit PinnedBuffer(std::size_t bytes);
    ~PinnedBuffer();
    PinnedBuffer(const PinnedBuffer &) = delete;
    PinnedBuffer &operator=(const PinnedBuffer &) = delete;
    uint8_t *data() const { return data_; }
    std::size_t size() const { return bytes_; }

private:
    uint8_t *data_ = nullptr;
    std::size_t bytes_;
};

// An image in CUDA device memory (device_image.h): one cudaMalloc; its view's
// `data` is the image's device address, kGuardBytes into the allocation.
class DeviceImage : public DeviceImageBase {
public:
    DeviceImage(int width, int height, int channels);
};

}  // namespace filterlab::cuda

namespace filterlab::cuda {

// Device time between two events on the default stream.
class EventTimer {
public:
    EventTimer();
    ~EventTimer();
    EventTimer(const EventTimer &) = delete;
    EventTimer &operator=(const EventTimer &) = delete;
    void start();
    double stop_ms();  // records the stop event, waits for it, returns the time since start()
private:
    void *start_ = nullptr, *stop_ = nullptr;
};

// Bandwidth of a device-to-device cudaMemcpy of `bytes`, counting bytes read
// plus bytes written, in GB/s: the median of `reps` copies.
double copy_bandwidth_gbps(std::size_t bytes, int reps);

struct TransferTimes {  // milliseconds for one image of the given size, medians
    double h2d_pageable, d2h_pageable, h2d_pinned, d2h_pinned;
};
TransferTimes transfer_times(std::size_t bytes, int reps);

// Current SM and memory clocks (MHz) through NVML, loaded at run time; -1 when
// NVML is not there.
struct Clocks {
    int sm_mhz = -1, memory_mhz = -1;
};
Clocks current_clocks();
std::size_t free_memory_bytes();

}  // namespace filterlab::cuda
