// NL-means' per-offset planes (generators/nlmeans.h: diff, patch_rows,
// patch_sum): one for each of the (2s+1)^2 offsets of the search window, over
// the image and its patch border. A schedule that stores them whole at root
// (the autoschedulers' GPU schedules) needs them to fit Halide's 32-bit
// element indices, or its kernels address past their buffers: the
// generator's requirement and the runtime's refusal both read this.
#pragma once

namespace filterlab {

// Largest element count a Halide buffer indexes (int32), without the large_buffers feature.
constexpr long long kHalideBufferElements = (1LL << 31) - 1;

// The elements of one per-offset stage stored whole: Int is long long, or a
// Halide::Expr of 64 bits.
template <typename Int>
Int nlmeans_offset_plane_elements(Int width, Int height, Int patch, Int search) {
    return (width + 2 * patch) * (height + 2 * patch) * (2 * search + 1) * (2 * search + 1);
}

}  // namespace filterlab
