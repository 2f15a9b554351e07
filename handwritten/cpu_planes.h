// What the handwritten CPU baselines (OpenMP, Pthreads) share: a channel
// plane of a planar host image, the clamp border rule, and the thread count,
// which follows Halide's (HL_NUM_THREADS; `bench --threads` sets it) so that
// every CPU variant of a run uses the same number of threads.
#pragma once

#include <cstddef>
#include <cstdint>

#include "halide_variant.h"
#include "image.h"

namespace filterlab::handwritten::cpu {

struct HostPlane {
    const uint8_t *in;
    uint8_t *out;
    int width, height;  // of the input
    std::ptrdiff_t in_pitch, out_pitch;
};

inline HostPlane host_plane(const PlanarView &in, const PlanarView &out, int c) {
    return {in.data + c * in.plane_stride, out.data + c * out.plane_stride, in.width, in.height, in.row_stride,
            out.row_stride};
}

inline int clamp_index(int v, int hi) { return v < 0 ? 0 : (v > hi ? hi : v); }

inline int threads() { return halide_thread_count() > 0 ? halide_thread_count() : 1; }

}  // namespace filterlab::handwritten::cpu
