// The GPU side of the harness, behind a header free of CUDA types so that
// plain C++ code can use it. Every CUDA call is checked; failures throw Error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "image.h"

namespace filterlab::cuda {

struct GpuInfo {
    bool available = false;
    std::string why_not;  // when not available
    std::string name;
    int sm_count = 0, compute_major = 0, compute_minor = 0;
    std::size_t memory_bytes = 0, l2_bytes = 0;
    int driver_version = 0, runtime_version = 0;  // e.g. 13000
    int sm_clock_mhz = 0, memory_clock_mhz = 0;
};

// Probed once; never throws.
const GpuInfo &gpu_info();
// Throws Error("no GPU: ...") when no usable GPU is present.
void require_gpu();
// The primary context of device 0 (a CUcontext), shared with Halide's CUDA runtime.
void *primary_context();
void synchronize(const char *what);  // cudaDeviceSynchronize + error check

// An image in device memory, planar, each row padded to a multiple of 64
// bytes (so rows start 16-byte aligned). The padding is part of the
// allocation, which lets the harness detect writes outside the image.
class DeviceImage {
public:
    DeviceImage(int width, int height, int channels);
    ~DeviceImage();
    DeviceImage(const DeviceImage &) = delete;
    DeviceImage &operator=(const DeviceImage &) = delete;

    PlanarView view() const;
    void upload(const Image &image);
    Image download() const;
    void fill(uint8_t value);  // the whole allocation, padding included
    std::vector<uint8_t> download_all() const;
    std::size_t row_pitch() const { return pitch_; }

private:
    int width_, height_, channels_;
    std::size_t pitch_;
    uint8_t *data_ = nullptr;
};

}  // namespace filterlab::cuda
