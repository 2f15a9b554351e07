// A block's pipeline of 2-D image tiles in shared memory, each filled by one
// tensor copy of the copy engine (TMA, sm_90): how a stencil kernel keeps tens
// of kilobytes in flight an SM without spending registers, or warps, on
// waiting loads, and without a serial chain of rows.
//
// Blocks are persistent: block b filters tiles b, b + grid, b + 2 grid, ...
// (row-major), STAGES of them in flight. One thread issues each tile's copy
// (one instruction for the whole tile with its halo) and the block waits on
// the tile's barrier before the filter reads it; when every thread is done
// with a stage, the tile STAGES further on is copied into it. The tiles in
// flight across the GPU are a contiguous run, so a tile's halo rows are its
// neighbours' rows, read from the L2 rather than DRAM a second time.
//
// The tensor copy fills what lies outside the image with zeros; a tile that
// reaches past an edge is clamped in shared memory (FILTERS.md's border rule)
// before it is filtered, so the filter itself never clamps.
//
// The plane is seen as 16-byte chunks (a 3-D tensor: 16 bytes x chunks a row
// x rows), so that a tile's row is 16 + COLUMNS + 16 bytes: the chunk left of
// its columns, its columns, the chunk right of them, with COLUMNS up to 3824
// (a copy's box is at most 256 in each dimension). A filter's horizontal reach
// is at most 16 columns.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <cstdint>
#include <atomic>
#include <string>

#include "error.h"
#include "plane.h"
#include "row_ring.cuh"

namespace filterlab::handwritten::tiles {

// A filter's tile: COLUMNS x ROWS outputs (COLUMNS a multiple of 16), HALO
// rows above and below them, STAGES tiles in flight a block of THREADS.
template <int COLUMNS, int ROWS, int HALO, int STAGES, int THREADS>
struct TileShape {
    static_assert(COLUMNS % 16 == 0 && COLUMNS / 16 + 2 <= 256, "whole chunks, a copy's box at most 256 of them");
    static_assert(ROWS + 2 * HALO <= 256, "a copy's box is at most 256 rows");
    static constexpr int kColumns = COLUMNS, kRows = ROWS, kHalo = HALO, kStages = STAGES, kThreads = THREADS;
    static constexpr int kChunks = COLUMNS / 16 + 2;
    static constexpr int kPitch = 16 * kChunks;        // bytes a row in shared memory
    static constexpr int kInputRows = ROWS + 2 * HALO;  // a tile's rows with its halo
    // Rounded to 128 bytes: each stage starts where a tensor copy may land.
    static constexpr int kStageBytes = (kPitch * kInputRows + 127) / 128 * 128;
    static constexpr int kSharedBytes = STAGES * kStageBytes + STAGES * 8;
};

// Where a tile lies: its first output column and row.
struct TileOrigin {
    int x0, y0;
};

// The tiles covering the outputs' region (columns x rows, in input
// coordinates: the image's, or the pooled part of it).
struct TileGrid {
    int columns, rows;  // the region
    int across, count;  // tiles a row of tiles, tiles in all
};

__device__ inline void wait_parity(uint32_t bar, uint32_t parity) {
    asm volatile(
        "{\n"
        ".reg .pred done;\n"
        "waiting:\n"
        "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 done, [%0], %1;\n"
        "@!done bra waiting;\n"
        "}\n" ::"r"(bar),
        "r"(parity)
        : "memory");
}

// One thread: the tile at `origin` with its halo into `stage`, announced on `bar`.
template <typename Shape>
__device__ inline void copy_tile(const CUtensorMap &map, uint8_t *stage, uint32_t bar, TileOrigin origin) {
    asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
                 "r"(Shape::kPitch * Shape::kInputRows)
                 : "memory");
    asm volatile(
        "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], "
        "[%5];" ::"r"(shared_address(stage)),
        "l"(&map), "r"(0), "r"(origin.x0 / 16 - 1), "r"(origin.y0 - Shape::kHalo), "r"(bar)
        : "memory");
}

// Whether the tile's shared copy reaches past an edge of the image.
template <typename Shape>
__device__ inline bool at_edge(const Plane &p, TileOrigin o) {
    return o.x0 == 0 || o.x0 + Shape::kColumns + 16 > p.width || o.y0 < Shape::kHalo ||
           o.y0 + Shape::kRows + Shape::kHalo > p.height;
}

// By the whole block, for a tile at an edge: every byte of the shared tile
// outside the image becomes the nearest edge byte. Columns first, in the rows
// inside the image; then whole rows above or below it.
template <typename Shape>
__device__ void clamp_tile(uint8_t *tile, const Plane &p, TileOrigin o) {
    constexpr int P = Shape::kPitch;
    const int left = o.x0 == 0 ? 16 : 0;                              // columns x < 0: the first 16
    const int right = min(P, max(0, p.width - o.x0 + 16));  // the first column x >= width
    const int first = max(0, Shape::kHalo - o.y0);               // the first row inside
    const int last = min(Shape::kInputRows, p.height - o.y0 + Shape::kHalo);  // past the last row inside
    const int outside = left + (P - right), span = last - first;
    for (int i = threadIdx.x; i < outside * span; i += Shape::kThreads) {
        const int r = first + i / outside, k = i % outside;
        const int c = k < left ? k : right + (k - left);
        tile[r * P + c] = tile[r * P + (c < left ? 16 : right - 1)];
    }
    __syncthreads();
    constexpr int kWords = P / 16;
    const int below = Shape::kInputRows - last;
    for (int i = threadIdx.x; i < (first + below) * kWords; i += Shape::kThreads) {
        const int k = i / kWords, r = k < first ? k : last + (k - first), w = i % kWords;
        const int from = r < first ? first : last - 1;
        reinterpret_cast<uint4 *>(tile + r * P)[w] = reinterpret_cast<const uint4 *>(tile + from * P)[w];
    }
    __syncthreads();
}

// The persistent loop. FILTER::filter(tile, p, args, origin, grid) filters one
// tile from shared memory (row r of `tile` is image row y0 - HALO + r, its
// byte c column x0 - 16 + c, every one clamped) and stores its outputs.
template <typename Filter>
__global__ void __launch_bounds__(Filter::Shape::kThreads)
    tiles_kernel(const __grid_constant__ CUtensorMap map, const Plane p, const typename Filter::Args args,
                 const TileGrid grid) {
    using Shape = typename Filter::Shape;
    extern __shared__ __align__(128) uint8_t shared[];
    uint64_t *bars = reinterpret_cast<uint64_t *>(shared + Shape::kStages * Shape::kStageBytes);
    auto origin = [&](int t) { return TileOrigin{t % grid.across * Shape::kColumns, t / grid.across * Shape::kRows}; };
    const int step = static_cast<int>(gridDim.x);
    if (threadIdx.x == 0) {
        for (int s = 0; s < Shape::kStages; s++)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_address(&bars[s])) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        for (int s = 0, t = blockIdx.x; s < Shape::kStages && t < grid.count; s++, t += step)
            copy_tile<Shape>(map, shared + s * Shape::kStageBytes, shared_address(&bars[s]), origin(t));
    }
    __syncthreads();
    int slot = 0;
    uint32_t parity = 0;
    for (int t = blockIdx.x; t < grid.count; t += step) {
        uint8_t *tile = shared + slot * Shape::kStageBytes;
        wait_parity(shared_address(&bars[slot]), parity);
        const TileOrigin o = origin(t);
        if (at_edge<Shape>(p, o)) clamp_tile<Shape>(tile, p, o);  // the same for the whole block
        Filter::filter(tile, p, args, o, grid);
        // The block's reads and writes of the stage (generic proxy) before the next copy into it (async proxy).
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        const int next = t + Shape::kStages * step;
        if (threadIdx.x == 0 && next < grid.count)
            copy_tile<Shape>(map, tile, shared_address(&bars[slot]), origin(next));
        if (++slot == Shape::kStages) slot = 0, parity ^= 1;
    }
}

// A thread's 16 columns of a tile row (`at`: its first column) and the two
// beside them on each side, as ten pairs of pixels in 16-bit lanes: (-2, -1),
// (0, 1), .. (14, 15), (16, 17). One 16-byte and two 4-byte reads.
__device__ inline void row_pairs(const uint8_t *at, uint32_t (&pairs)[10]) {
    const uint32_t before = *reinterpret_cast<const uint32_t *>(at - 4);
    const uint4 mid = *reinterpret_cast<const uint4 *>(at);
    const uint32_t after = *reinterpret_cast<const uint32_t *>(at + 16);
    const uint32_t w[4] = {mid.x, mid.y, mid.z, mid.w};
    pairs[0] = __byte_perm(before, 0, 0x4342);
#pragma unroll
    for (int j = 0; j < 4; j++) {
        pairs[1 + 2 * j] = __byte_perm(w[j], 0, 0x4140);
        pairs[2 + 2 * j] = __byte_perm(w[j], 0, 0x4342);
    }
    pairs[9] = __byte_perm(after, 0, 0x4140);
}

// The driver's tensor-map encoder, looked up once a process (the runtime
// links no driver symbol).
inline PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
    static PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
        void *fn = nullptr;
        cudaDriverEntryPointQueryResult found{};
        cuda_check(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found),
                   "cudaGetDriverEntryPointByVersion(cuTensorMapEncodeTiled)");
        if (found != cudaDriverEntryPointSuccess || fn == nullptr)
            throw MachineError("the CUDA driver has no cuTensorMapEncodeTiled (a driver for CUDA 12 or later is needed)");
        return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
    }();
    return encode;
}

// The plane's input as 16-byte chunks, copied a Shape's tile at a time. The
// device images' rows are padded to 64 bytes (DeviceLayout), which a tensor
// copy needs (16-byte aligned rows, a pitch of whole chunks).
template <typename Shape>
CUtensorMap tile_map(const Plane &p) {
    const auto address = reinterpret_cast<std::uintptr_t>(p.in);
    const int chunks = (p.width + 15) / 16;
    if (address % 16 != 0 || p.in_pitch % 16 != 0 || p.in_pitch < 16 * chunks)
        throw Error("tiled kernel: a plane's rows must start 16-byte aligned and span whole 16-byte chunks");
    const cuuint64_t dims[3] = {16, static_cast<cuuint64_t>(chunks), static_cast<cuuint64_t>(p.height)};
    const cuuint64_t strides[2] = {16, static_cast<cuuint64_t>(p.in_pitch)};  // bytes, of dimensions 1 and 2
    const cuuint32_t box[3] = {16, Shape::kChunks, Shape::kInputRows}, unit[3] = {1, 1, 1};
    CUtensorMap map;
    const CUresult status = tensor_map_encoder()(
        &map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 3, const_cast<uint8_t *>(p.in), dims, strides, box, unit,
        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (status != CUDA_SUCCESS) throw Error("cuTensorMapEncodeTiled failed: error " + std::to_string(status));
    return map;
}

// How many blocks of `kernel` the current GPU holds at once; the first call
// on each GPU also lets the kernel take the Shape's shared memory there.
template <typename Shape, typename Kernel>
int resident_blocks(Kernel kernel) {
    constexpr int kDevices = 64;
    static std::atomic<int> known[kDevices] = {};
    int device = 0;
    cuda_check(cudaGetDevice(&device), "cudaGetDevice");
    if (device < kDevices && known[device].load(std::memory_order_relaxed) > 0) return known[device];
    cuda_check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Shape::kSharedBytes),
               "cudaFuncSetAttribute");
    int sms = 0, per_sm = 0;
    cuda_check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
    cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, Shape::kThreads, Shape::kSharedBytes),
               "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    const int blocks = std::max(1, sms * per_sm);
    if (device < kDevices) known[device].store(blocks, std::memory_order_relaxed);
    return blocks;
}

// Launches FILTER over the region (columns x rows of input coordinates) of
// plane p: as many persistent blocks as the GPU holds at once, no more than tiles.
template <typename Filter>
void launch_tiles(const Plane &p, const typename Filter::Args &args, int columns, int rows) {
    using Shape = typename Filter::Shape;
    if (columns <= 0 || rows <= 0) return;
    const auto kernel = tiles_kernel<Filter>;
    const int resident = resident_blocks<Shape>(kernel);
    const int across = (columns + Shape::kColumns - 1) / Shape::kColumns;
    const TileGrid grid{columns, rows, across, across * ((rows + Shape::kRows - 1) / Shape::kRows)};
    const CUtensorMap map = tile_map<Shape>(p);
    kernel<<<std::min(grid.count, resident), Shape::kThreads, Shape::kSharedBytes, stream()>>>(map, p, args, grid);
}

}  // namespace filterlab::handwritten::tiles
