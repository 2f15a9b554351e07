// Asking L2 for a warp's rows before its lanes load them: one instruction a
// strip, no registers. A kernel that keeps few rows' loads in flight (they
// are registers) waits a DRAM round trip on each; with its strip's rows
// already on their way to L2 its loads wait an L2 round trip.
#pragma once

#include <cstddef>
#include <cstdint>

#include "plane.h"

namespace filterlab::handwritten {

// By the whole warp: lane l < count asks L2 for image row first + l * step
// (clamped) of the plane's input, columns [begin, end) (16-byte units,
// `begin` a multiple of 16; rows padded to 64 bytes hold the last unit).
__device__ inline void prefetch_rows_l2(const Plane &p, int first, int step, int count, int begin, int end, int lane) {
    begin = begin < 0 ? 0 : begin;
    end = end < ((p.width + 15) & ~15) ? end : ((p.width + 15) & ~15);
    if (end <= begin) return;
    for (int l = lane; l < count; l += 32) {
        const int y = clamp_index(first + l * step, p.height - 1);
        const uint8_t *row = p.in + static_cast<std::ptrdiff_t>(y) * p.in_pitch + begin;
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(row), "r"(static_cast<uint32_t>(end - begin))
                     : "memory");
    }
}

}  // namespace filterlab::handwritten
