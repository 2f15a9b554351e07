// Host-side helpers shared by the handwritten kernels: every CUDA call and
// every launch is checked, and a failure becomes a filterlab::Error.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "cuda_errors.h"
#include "error.h"
#include "image.h"

namespace filterlab::handwritten {

using filterlab::cuda_check;

// After a launch: configuration errors surface here, execution errors at the
// harness's next synchronisation.
inline void check_launch(const char *kernel) { cuda_check(cudaGetLastError(), kernel); }

// One plane of a planar device image, as the kernels take it.
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

__host__ __device__ inline int clamp_index(int v, int hi) { return v < 0 ? 0 : (v > hi ? hi : v); }

}  // namespace filterlab::handwritten
