// What the nlmeans kernels share: all channels of an image at once (the patch
// distance sums over them), the contract's parameters, stream-ordered scratch
// memory, and the final normalisation. Gold: reference::nlmeans.
#pragma once

#include <cmath>
#include <cstddef>
#include <utility>

#include "plane.h"
#include "registry.h"

namespace filterlab::handwritten::nlmeans {

constexpr int kMaxChannels = 3;

// The planes of one device image (input and output), up to three channels.
struct Planes {
    const uint8_t *in[kMaxChannels];
    uint8_t *out[kMaxChannels];
    int width, height, channels;
    std::ptrdiff_t in_pitch, out_pitch;

    __device__ float sample(int x, int y, int c) const {  // J with the clamp border
        return in[c][clamp_index(y, height - 1) * in_pitch + clamp_index(x, width - 1)];
    }
};

inline Planes planes(const PlanarView &in, const PlanarView &out) {
    if (in.channels > kMaxChannels) throw Error("nlmeans kernels take 1 to 3 channels");
    Planes p{};
    for (int c = 0; c < in.channels; c++) {
        p.in[c] = in.data + c * in.plane_stride;
        p.out[c] = out.data + c * out.plane_stride;
    }
    p.width = in.width;
    p.height = in.height;
    p.channels = in.channels;
    p.in_pitch = in.row_stride;
    p.out_pitch = out.row_stride;
    return p;
}

struct Params {
    int patch, search;
    float inverse_scale;  // 1 / (C * P * h^2): weight = exp(-patch_sum * inverse_scale)
};

inline Params params(const ParamValues &values, int channels) {
    const int p = static_cast<int>(values.at("patch"));
    const double h = values.at("h"), patch_size = double(2 * p + 1) * double(2 * p + 1);
    return {p, static_cast<int>(values.at("search")), static_cast<float>(1.0 / (channels * patch_size * h * h))};
}

// Device memory for the length of one call, ordered on the kernels' stream
// (stream(), plane.h): no synchronisation on allocation or release.
template <typename T>
class Scratch {
public:
    explicit Scratch(std::size_t count) {
        cuda_check(cudaMallocAsync(reinterpret_cast<void **>(&data_), count * sizeof(T), stream()), "cudaMallocAsync");
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

// out = round_half_up(clamp(numerator / denominator, 0, 255)) from C+1 float
// planes of width*height accumulators (the numerators, then the denominator).
void normalise(const Planes &p, const float *accum);

inline dim3 pixel_grid(int width, int height, dim3 block) {
    return dim3((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
}

}  // namespace filterlab::handwritten::nlmeans
