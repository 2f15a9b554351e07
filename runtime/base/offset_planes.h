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

// x rounded up to a multiple of k (x >= 0).
template <typename Int>
Int rounded_up(Int x, int k) {
    return (x + (k - 1)) / k * k;
}

// A bound on the elements of the largest per-offset stage stored whole, as
// the frozen GPU autoschedule stores them (schedules/nlmeans/auto/: splits
// rounded up to 32 columns, 128 rows and 7 offsets, and the patch border):
// (ceil32(W + 2p) + 32) x ceil128(H + 2p) x ceil7(2s + 1) x (2s + 1). Its
// lowered loop nest (the library's .stmt) allocates less than this for
// every shape. Int is long long, or a Halide::Expr of 64 bits.
template <typename Int>
Int nlmeans_offset_plane_elements(Int width, Int height, Int patch, Int search) {
    const Int window = 2 * search + 1;
    return (rounded_up(width + 2 * patch, 32) + 32) * rounded_up(height + 2 * patch, 128) * rounded_up(window, 7) *
           window;
}

}  // namespace filterlab
