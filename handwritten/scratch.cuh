// Device memory for the length of one call, ordered on the call's stream
// (stream(), plane.h): taken from FilterLab's pool (cuda::scratch_pool) and
// given back with cudaFreeAsync, so no synchronisation and nothing shared
// between calls.
// Calls on other threads or streams each get their own: a kernel still running
// on one stream never sees another call's memory freed or reused under it.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "image.h"
#include "plane.h"

namespace filterlab::handwritten {

// `count` elements of T, zeroed unless `zeroed` is false (on the stream,
// before any kernel of the call).
template <typename T>
class Scratch {
public:
    explicit Scratch(std::size_t count, bool zeroed = true) {
        cuda_check(cudaMallocFromPoolAsync(reinterpret_cast<void **>(&data_), count * sizeof(T),
                                           static_cast<cudaMemPool_t>(cuda::scratch_pool()), stream()),
                   "cudaMallocFromPoolAsync");
        if (!zeroed) return;
        const cudaError_t status = cudaMemsetAsync(data_, 0, count * sizeof(T), stream());
        if (status != cudaSuccess) cudaFreeAsync(data_, stream());  // the constructor fails: no destructor
        cuda_check(status, "cudaMemsetAsync");
    }
    // Checked release, at the end of a call.
    void release() {
        T *data = std::exchange(data_, nullptr);
        cuda_check(cudaFreeAsync(data, stream()), "cudaFreeAsync");
    }
    // Unchecked, only when a call throws before release(): its error is the one to report.
    ~Scratch() {
        if (data_) cudaFreeAsync(data_, stream());
    }
    Scratch(const Scratch &) = delete;
    Scratch &operator=(const Scratch &) = delete;
    T *get() const { return data_; }

private:
    T *data_ = nullptr;
};

// An intermediate image of one call, laid out as the harness lays out device
// images (DeviceLayout: rows padded to 64 bytes, guards around), so a
// registered variant can take it as input or output. Only the bytes no kernel
// writes are zeroed (the rows' padding, the guards): kernels that load whole
// 16-byte words read them, and must read initialised memory (compute-sanitizer
// initcheck); the image itself is written by the kernel that makes it, and
// zeroing it too would cost a pass over the image.
class ScratchImage {
public:
    ScratchImage(int width, int height, int channels)
        : width_(width), height_(height), channels_(channels),
          bytes_(DeviceLayout::allocation_bytes(width, height, channels), false) {
        const std::size_t pitch = DeviceLayout::row_pitch(width), guard = DeviceLayout::kGuardBytes;
        const std::size_t rows = static_cast<std::size_t>(height) * channels;
        uint8_t *base = bytes_.get();
        cuda_check(cudaMemsetAsync(base, 0, guard, stream()), "cudaMemsetAsync");
        cuda_check(cudaMemsetAsync(base + guard + pitch * rows, 0, guard, stream()), "cudaMemsetAsync");
        if (pitch > static_cast<std::size_t>(width)) {
            cuda_check(cudaMemset2DAsync(base + guard + width, pitch, 0, pitch - width, rows, stream()),
                       "cudaMemset2DAsync");
        }
    }
    PlanarView view() const {
        const auto pitch = static_cast<std::ptrdiff_t>(DeviceLayout::row_pitch(width_));
        return {bytes_.get() + DeviceLayout::kGuardBytes, width_, height_, channels_, pitch, pitch * height_};
    }
    void release() { bytes_.release(); }

private:
    int width_, height_, channels_;
    Scratch<uint8_t> bytes_;
};

}  // namespace filterlab::handwritten
