// A warp's ring of image rows in shared memory, filled by the copy engine
// (TMA bulk copies, sm_90) ahead of the rows the warp is filtering: how a
// stencil kernel keeps enough bytes in flight to run at the bus's rate without
// spending registers, or warps, on waiting loads.
//
// The warp reads its ring alone. Its lanes copy a group of rows into a slot
// and lane 0 announces the copies' bytes on the slot's barrier; the lanes
// wait on the barrier before they read the group, and when the warp is done
// with a slot it refills it with rows further down. Slots are taken in order,
// so a slot's phase (the parity a waiter asks for) flips each time the ring
// wraps.
//
// Rows are clamped to the image as they are copied (FILTERS.md's border rule
// in y); columns are the reader's to clamp. A copy moves 16-byte units from a
// 16-byte aligned source: a segment starts at a multiple of 16 columns and
// ends at the row's last 16-byte unit that holds a pixel, which lies inside the
// row's pitch (the images' rows are padded to 64 bytes).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "plane.h"

namespace filterlab::handwritten {

__device__ inline uint32_t shared_address(const void *p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// Waits until the phase of parity `phase` of the barrier at shared address
// `bar` has completed (its copies landed).
__device__ inline void wait_barrier(uint32_t bar, uint32_t phase) {
    asm volatile(
        "{\n"
        ".reg .pred done;\n"
        "waiting:\n"
        "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 done, [%0], %1;\n"
        "@!done bra waiting;\n"
        "}\n" ::"r"(bar),
        "r"(phase)
        : "memory");
}

// SLOTS groups of ROWS rows of PITCH bytes and a barrier for each group, in
// the warp's part of the block's shared memory. Rows travel in groups so that
// a warp waits, and its lane 0 announces copies, once a group, and its lanes
// issue a group's copies side by side: the ring's own instructions, beside the
// filter's, are paid once a group, not once a row.
template <int SLOTS, int ROWS, int PITCH>
class RowRing {
public:
    static_assert(PITCH % 16 == 0, "bulk copies land on 16-byte boundaries");
    static_assert(ROWS <= 32, "a lane copies a row");
    // Rounded to 128 bytes, so that rings side by side each start aligned.
    static constexpr std::size_t kBytes = (std::size_t(SLOTS) * ROWS * PITCH + SLOTS * sizeof(uint64_t) + 127) / 128 * 128;

    // `shared`: 128-byte aligned, kBytes long. By the whole warp.
    __device__ RowRing(uint8_t *shared, int lane)
        : rows_(shared), barriers_(reinterpret_cast<uint64_t *>(shared + SLOTS * ROWS * PITCH)) {
        if (lane == 0) {
            for (int s = 0; s < SLOTS; s++)
                asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_address(&barriers_[s])) : "memory");
            // The copy engine must see the initialised barriers.
            asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        }
        __syncwarp();
    }

    // By the whole warp, done reading `slot`: image rows y .. y + ROWS - 1
    // (each clamped) of the plane, columns [begin, end), into `slot`, the
    // segment's column `origin` at each row's byte 0.
    __device__ void fetch(int slot, const Plane &p, int y, int origin, int begin, int end, int lane) const {
        const uint32_t bar = shared_address(&barriers_[slot]), bytes = static_cast<uint32_t>(end - begin);
        // The lanes' reads of the slot (generic proxy) come before the copies' writes (async proxy).
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncwarp();
        if (lane == 0)
            asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
                         "r"(ROWS * bytes)
                         : "memory");
        __syncwarp();
        if (lane < ROWS) {
            const uint8_t *src = p.in + static_cast<std::ptrdiff_t>(clamp_index(y + lane, p.height - 1)) * p.in_pitch + begin;
            asm volatile(
                "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                    shared_address(group(slot) + lane * PITCH + (begin - origin))),
                "l"(src), "r"(bytes), "r"(bar)
                : "memory");
        }
    }

    // By every lane: the group in `slot` (its first row; row i at i * PITCH)
    // once its copies of phase `phase` landed.
    __device__ const uint8_t *wait(int slot, uint32_t phase) const {
        wait_barrier(shared_address(&barriers_[slot]), phase);
        return group(slot);
    }

    // A group already waited for.
    __device__ const uint8_t *group(int slot) const { return rows_ + slot * ROWS * PITCH; }

private:
    uint8_t *rows_;
    uint64_t *barriers_;
};

// The slot and phase of consecutive groups of a ring of SLOTS.
template <int SLOTS>
struct RingCursor {
    int slot = 0;
    uint32_t phase = 0;
    __device__ void next() {
        if (++slot == SLOTS) slot = 0, phase ^= 1;
    }
};

// How a ring kernel's warps split an image: `bands` columns of warps, each
// walking strips of `rows` rows, as tall as fills the GPU once, so that each
// warp pays its window's warm-up once.
struct StripGrid {
    int rows, warps;
};

// Also lets `kernel` take `shared` bytes of dynamic shared memory.
template <typename Kernel>
StripGrid strip_grid(Kernel kernel, int block_warps, std::size_t shared, int bands, int height) {
    cuda_check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)),
               "cudaFuncSetAttribute");
    int device = 0, sms = 0, blocks_per_sm = 0;
    cuda_check(cudaGetDevice(&device), "cudaGetDevice");
    cuda_check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
    cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, 32 * block_warps, shared),
               "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    const int strips_at_once = std::max(1, sms * blocks_per_sm * block_warps / bands);
    const int rows = (height + strips_at_once - 1) / strips_at_once;
    return {rows, bands * ((height + rows - 1) / rows)};
}

}  // namespace filterlab::handwritten
