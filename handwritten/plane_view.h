// The channel plane every handwritten variant takes, CUDA kernel or CPU
// baseline, and the clamp border rule of FILTERS.md. Free of CUDA headers,
// so that the CPU baselines include it as the kernels do (through plane.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "image.h"

#ifdef __CUDACC__
#define FILTERLAB_HOST_DEVICE __host__ __device__
#else
#define FILTERLAB_HOST_DEVICE
#endif

namespace filterlab::handwritten {

// One plane of a planar image (device memory for the kernels, host memory for
// the CPU baselines); width and height are the input's.
struct Plane {
    const uint8_t *in;
    uint8_t *out;
    int width, height;
    std::ptrdiff_t in_pitch, out_pitch;
};

inline Plane plane(const PlanarView &in, const PlanarView &out, int c) {
    return {in.data + c * in.plane_stride, out.data + c * out.plane_stride, in.width, in.height, in.row_stride,
            out.row_stride};
}

FILTERLAB_HOST_DEVICE inline int clamp_index(int v, int hi) { return v < 0 ? 0 : (v > hi ? hi : v); }

}  // namespace filterlab::handwritten
