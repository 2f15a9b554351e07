// A block's pipeline of 2-D image tiles in shared memory, each filled by the
// copy engine (TMA tensor copies, sm_90): how a stencil kernel keeps tens of
// kilobytes in flight an SM without spending registers, or warps, on waiting
// loads, and without a serial chain of rows.
//
// Blocks are persistent: block b filters tiles b, b + grid, b + 2 grid, ...
// (row-major), STAGES of them in flight. A tile is three copies: its columns
// (rows of COLUMNS bytes, at most 256: a copy's box) and the 16 columns on
// each side of them (the halo's columns, in their own small arrays), all with
// HALO rows above and below. The block's warps wait on the tile's barrier and
// filter it; the last warp done with a stage copies the tile STAGES further on
// into it, so no warp waits for another between tiles. The tiles in flight
// across the GPU are a contiguous run, so a tile's halo is its neighbours'
// pixels, read from the L2 rather than DRAM a second time.
//
// A tensor copy fills what lies outside the image with zeros; a tile that
// reaches past an edge is clamped in shared memory (FILTERS.md's border rule)
// before it is filtered, so the filters never clamp.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>

#include "error.h"
#include "plane.h"
#include "row_ring.cuh"

namespace filterlab::handwritten::tiles {

// A filter's tile: COLUMNS x ROWS outputs (COLUMNS a multiple of 16, at most
// 256), HALO rows above and below them, STAGES tiles in flight a block of THREADS.
template <int COLUMNS, int ROWS, int HALO, int STAGES, int THREADS>
struct TileShape {
    static_assert(COLUMNS % 16 == 0 && COLUMNS <= 256, "a copy's box is at most 256 bytes wide");
    static_assert(ROWS + 2 * HALO <= 256, "a copy's box is at most 256 rows");
    static_assert(THREADS % 32 == 0, "whole warps");
    static constexpr int kColumns = COLUMNS, kRows = ROWS, kHalo = HALO, kStages = STAGES, kThreads = THREADS;
    static constexpr int kWarps = THREADS / 32;
    static constexpr int kInputRows = ROWS + 2 * HALO;  // a tile's rows with its halo
    // A stage: the columns, then the left and the right side's 16 columns,
    // each array starting on 128 bytes, where a tensor copy may land.
    static constexpr int kSideOffset = (COLUMNS * kInputRows + 127) / 128 * 128;
    static constexpr int kSideBytes = (16 * kInputRows + 127) / 128 * 128;
    static constexpr int kStageBytes = kSideOffset + 2 * kSideBytes;
    static constexpr int kSharedBytes = STAGES * kStageBytes + STAGES * (8 + 4);  // barriers, warps done
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

// The copies' descriptions of the plane: its columns in boxes a tile wide,
// and in boxes 16 columns wide (the sides).
struct TileMaps {
    CUtensorMap columns, side;
};

// A shared tile's byte at row r (image row y0 - HALO + r) and column c
// (image column x0 - 16 + c), 0 <= c < COLUMNS + 32.
template <typename Shape>
__device__ inline uint8_t *tile_byte(uint8_t *stage, int r, int c) {
    if (c < 16) return stage + Shape::kSideOffset + 16 * r + c;
    if (c < 16 + Shape::kColumns) return stage + Shape::kColumns * r + (c - 16);
    return stage + Shape::kSideOffset + Shape::kSideBytes + 16 * r + (c - 16 - Shape::kColumns);
}

// A thread's view of a tile: rows of its 16 columns (mid) and of the 4
// columns before and after them (before, after), which lie in the columns'
// array or, at the tile's sides, in a side's.
struct Strip {
    const uint8_t *mid, *before, *after;
    int before_pitch, after_pitch;
};

// The strip of columns x .. x + 15 (cx = (x - x0) / 16), from tile row `row`.
template <typename Shape>
__device__ inline Strip strip(const uint8_t *stage, int cx, int row) {
    constexpr int C = Shape::kColumns;
    const uint8_t *left = stage + Shape::kSideOffset, *right = left + Shape::kSideBytes;
    const uint8_t *mid = stage + C * row + 16 * cx;
    const bool first = cx == 0, last = cx == C / 16 - 1;
    return {mid, first ? left + 16 * row + 12 : mid - 4, last ? right + 16 * row : mid + 16, first ? 16 : C,
            last ? 16 : C};
}

// Strip row r as ten pairs of pixels in 16-bit lanes: (-2, -1), (0, 1), ..
// (14, 15), (16, 17). One 16-byte and two 4-byte reads.
template <typename Shape>
__device__ inline void row_pairs(const Strip &s, int r, uint32_t (&pairs)[10]) {
    const uint32_t before = *reinterpret_cast<const uint32_t *>(s.before + r * s.before_pitch);
    const uint4 mid = *reinterpret_cast<const uint4 *>(s.mid + r * Shape::kColumns);
    const uint32_t after = *reinterpret_cast<const uint32_t *>(s.after + r * s.after_pitch);
    const uint32_t w[4] = {mid.x, mid.y, mid.z, mid.w};
    pairs[0] = __byte_perm(before, 0, 0x4342);
#pragma unroll
    for (int j = 0; j < 4; j++) {
        pairs[1 + 2 * j] = __byte_perm(w[j], 0, 0x4140);
        pairs[2 + 2 * j] = __byte_perm(w[j], 0, 0x4342);
    }
    pairs[9] = __byte_perm(after, 0, 0x4140);
}

// A thread's strip of a tile with FILTER's window (2 HALO + 1 rows): for
// each output row y of its ROWS_EACH inside the region, emit(win, x, y) with
// win[i] the pairs of image row y - HALO + i. All but the strip's rows and
// the window are Shape's: the filters of radius 1 and 2 walk alike.
template <typename Shape, int ROWS_EACH, typename Emit>
__device__ inline void walk_strip(const uint8_t *stage, TileOrigin o, const TileGrid &g, Emit &&emit) {
    constexpr int kAcross = Shape::kColumns / 16, kWindow = 2 * Shape::kHalo + 1;
    static_assert(Shape::kThreads * ROWS_EACH == kAcross * Shape::kRows, "a thread a strip of the tile");
    const int cx = static_cast<int>(threadIdx.x) % kAcross, gy = static_cast<int>(threadIdx.x) / kAcross;
    const int x = o.x0 + 16 * cx, y0 = o.y0 + gy * ROWS_EACH;
    if (x >= g.columns || y0 >= g.rows) return;
    const Strip s = strip<Shape>(stage, cx, gy * ROWS_EACH);  // row r: image row y0 - HALO + r
    uint32_t win[kWindow][10] = {};
#pragma unroll
    for (int r = 0; r < ROWS_EACH + kWindow - 1; r++) {
#pragma unroll
        for (int i = 0; i + 1 < kWindow; i++)
#pragma unroll
            for (int j = 0; j < 10; j++) win[i][j] = win[i + 1][j];
        row_pairs<Shape>(s, r, win[kWindow - 1]);
        if (r < kWindow - 1) continue;
        const int y = y0 + r - (kWindow - 1);
        if (y >= g.rows) break;
        emit(win, x, y);
    }
}

__device__ inline void copy_box(uint8_t *to, const CUtensorMap &map, int x, int y, uint32_t bar) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::
            "r"(shared_address(to)),
        "l"(&map), "r"(x), "r"(y), "r"(bar)
        : "memory");
}

// One thread: the tile at `origin` with its halo into `stage`, announced on `bar`.
template <typename Shape>
__device__ inline void copy_tile(const TileMaps &maps, uint8_t *stage, uint32_t bar, TileOrigin o) {
    asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
                 "r"((Shape::kColumns + 32) * Shape::kInputRows)
                 : "memory");
    const int y = o.y0 - Shape::kHalo;
    copy_box(stage, maps.columns, o.x0, y, bar);
    copy_box(stage + Shape::kSideOffset, maps.side, o.x0 - 16, y, bar);
    copy_box(stage + Shape::kSideOffset + Shape::kSideBytes, maps.side, o.x0 + Shape::kColumns, y, bar);
}

// Whether the tile's shared copy reaches past an edge of the image.
template <typename Shape>
__device__ inline bool at_edge(const Plane &p, TileOrigin o) {
    return o.x0 == 0 || o.x0 + Shape::kColumns + 16 > p.width || o.y0 < Shape::kHalo ||
           o.y0 + Shape::kRows + Shape::kHalo > p.height;
}

// A shared tile's 16-byte unit u of row r: u = 0 the left side's, 1 ..
// COLUMNS / 16 the columns', COLUMNS / 16 + 1 the right side's.
template <typename Shape>
__device__ inline uint4 *tile_unit(uint8_t *stage, int r, int u) {
    if (u == 0) return reinterpret_cast<uint4 *>(stage + Shape::kSideOffset + 16 * r);
    if (u <= Shape::kColumns / 16) return reinterpret_cast<uint4 *>(stage + Shape::kColumns * r + 16 * (u - 1));
    return reinterpret_cast<uint4 *>(stage + Shape::kSideOffset + Shape::kSideBytes + 16 * r);
}

// By the whole block, for a tile at an edge: every byte of the shared tile
// that a strip reads and that lies outside the image becomes the nearest edge
// byte. A strip reads 4 columns past its 16 (row_pairs) and, in walk_strip,
// one row past the window of the region's last row; nothing further is
// clamped. Columns first, a thread a row inside the image; then whole rows
// above or below it, 16 bytes a thread.
template <typename Shape>
__device__ void clamp_tile(uint8_t *stage, const Plane &p, TileOrigin o, const TileGrid &g) {
    constexpr int kUnits = Shape::kColumns / 16 + 2;
    const int strips = (min(g.columns - o.x0, Shape::kColumns) + 15) / 16;    // strips with outputs
    const int read = min(16 * kUnits, 16 * strips + 20);                       // past the last column read
    const int right = min(read, p.width - o.x0 + 16);                          // the first column x >= width
    const int left = o.x0 == 0 ? 16 : 0;                                       // columns x < 0: the first 16
    const int rows = min(Shape::kInputRows, g.rows - o.y0 + 2 * Shape::kHalo + 1);  // past the last row read
    const int first = max(0, Shape::kHalo - o.y0);                             // the first row inside
    const int last = min(rows, p.height - o.y0 + Shape::kHalo);                // past the last row inside
    for (int r = first + static_cast<int>(threadIdx.x); r < last; r += Shape::kThreads) {
        const uint8_t lo = *tile_byte<Shape>(stage, r, 16), hi = *tile_byte<Shape>(stage, r, right - 1);
        for (int c = 0; c < left; c++) *tile_byte<Shape>(stage, r, c) = lo;
        for (int c = right; c < read; c++) *tile_byte<Shape>(stage, r, c) = hi;
    }
    __syncthreads();
    const int outside = first + (rows - last);
    for (int i = threadIdx.x; i < outside * kUnits; i += Shape::kThreads) {
        const int k = i / kUnits, r = k < first ? k : last + (k - first), u = i % kUnits;
        *tile_unit<Shape>(stage, r, u) = *tile_unit<Shape>(stage, r < first ? first : last - 1, u);
    }
    __syncthreads();
}

// The persistent loop. FILTER::filter(stage, p, args, origin, grid) filters
// one tile from shared memory (tile_byte and strip say where its bytes lie,
// every one clamped) and stores its outputs. Every warp walks every tile of
// its block in order (a filter returns; it never leaves the loop), which both
// the refill's count of warps and clamp_tile's block barriers rely on.
template <typename Filter>
__global__ void __launch_bounds__(Filter::Shape::kThreads)
    tiles_kernel(const __grid_constant__ TileMaps maps, const Plane p, const typename Filter::Args args,
                 const TileGrid grid) {
    using Shape = typename Filter::Shape;
    extern __shared__ __align__(128) uint8_t shared[];
    uint64_t *bars = reinterpret_cast<uint64_t *>(shared + Shape::kStages * Shape::kStageBytes);
    uint32_t *done = reinterpret_cast<uint32_t *>(bars + Shape::kStages);  // warps done with each stage
    auto origin = [&](int t) { return TileOrigin{t % grid.across * Shape::kColumns, t / grid.across * Shape::kRows}; };
    const int step = static_cast<int>(gridDim.x), lane = static_cast<int>(threadIdx.x) & 31;
    if (threadIdx.x == 0) {
        for (int s = 0; s < Shape::kStages; s++) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_address(&bars[s])) : "memory");
            done[s] = 0;
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        for (int s = 0, t = blockIdx.x; s < Shape::kStages && t < grid.count; s++, t += step)
            copy_tile<Shape>(maps, shared + s * Shape::kStageBytes, shared_address(&bars[s]), origin(t));
    }
    __syncthreads();
    int slot = 0;
    uint32_t parity = 0;
    for (int t = blockIdx.x; t < grid.count; t += step) {
        uint8_t *stage = shared + slot * Shape::kStageBytes;
        wait_barrier(shared_address(&bars[slot]), parity);
        const TileOrigin o = origin(t);
        if (at_edge<Shape>(p, o)) clamp_tile<Shape>(stage, p, o, grid);  // the same for the whole block
        Filter::filter(stage, p, args, o, grid);
        // The warp's reads and writes of the stage (generic proxy) before the next copy into it (async proxy).
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncwarp();
        if (lane == 0) {
            __threadfence_block();
            if (atomicAdd(&done[slot], 1u) == Shape::kWarps - 1) {  // the last warp: the stage is free
                done[slot] = 0;
                __threadfence_block();
                const int next = t + Shape::kStages * step;
                if (next < grid.count) copy_tile<Shape>(maps, stage, shared_address(&bars[slot]), origin(next));
            }
        }
        if (++slot == Shape::kStages) slot = 0, parity ^= 1;
    }
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

// The plane's input as a 2-D tensor copied in boxes of `box_columns` x
// `box_rows`. The device images' rows are padded to 64 bytes (DeviceLayout),
// which a tensor copy needs (16-byte aligned rows).
inline CUtensorMap plane_map(const Plane &p, int box_columns, int box_rows) {
    const auto address = reinterpret_cast<std::uintptr_t>(p.in);
    if (address % 16 != 0 || p.in_pitch % 16 != 0)
        throw Error("tiled kernel: a plane's rows must start 16-byte aligned");
    const cuuint64_t dims[2] = {static_cast<cuuint64_t>(p.width), static_cast<cuuint64_t>(p.height)};
    const cuuint64_t strides[1] = {static_cast<cuuint64_t>(p.in_pitch)};  // bytes, of dimension 1
    const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_columns), static_cast<cuuint32_t>(box_rows)};
    const cuuint32_t unit[2] = {1, 1};
    CUtensorMap map;
    const CUresult status = tensor_map_encoder()(
        &map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, const_cast<uint8_t *>(p.in), dims, strides, box, unit,
        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (status != CUDA_SUCCESS) throw Error("cuTensorMapEncodeTiled failed: error " + std::to_string(status));
    return map;
}

// How many blocks of FILTER's kernel the current GPU holds at once; the
// first call on each GPU also lets the kernel take its shared memory there.
// One cache a filter: kernels of one signature are distinct kernels.
template <typename Filter>
int resident_blocks() {
    using Shape = typename Filter::Shape;
    constexpr int kDevices = 64;
    static std::atomic<int> known[kDevices] = {};
    int device = 0;
    cuda_check(cudaGetDevice(&device), "cudaGetDevice");
    if (device < kDevices) {
        const int blocks = known[device].load(std::memory_order_acquire);
        if (blocks > 0) return blocks;
    }
    const auto kernel = tiles_kernel<Filter>;
    cuda_check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Shape::kSharedBytes),
               "cudaFuncSetAttribute");
    int sms = 0, per_sm = 0;
    cuda_check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
    cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, Shape::kThreads, Shape::kSharedBytes),
               "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    const int blocks = std::max(1, sms * per_sm);
    if (device < kDevices) known[device].store(blocks, std::memory_order_release);
    return blocks;
}

// Launches FILTER over the region (columns x rows of input coordinates) of
// plane p: as many persistent blocks as the GPU holds at once, no more than tiles.
template <typename Filter>
void launch_tiles(const Plane &p, const typename Filter::Args &args, int columns, int rows) {
    using Shape = typename Filter::Shape;
    if (columns <= 0 || rows <= 0) return;
    const int resident = resident_blocks<Filter>();
    const int across = (columns + Shape::kColumns - 1) / Shape::kColumns;
    const TileGrid grid{columns, rows, across, across * ((rows + Shape::kRows - 1) / Shape::kRows)};
    const TileMaps maps{plane_map(p, Shape::kColumns, Shape::kInputRows), plane_map(p, 16, Shape::kInputRows)};
    tiles_kernel<Filter><<<std::min(grid.count, resident), Shape::kThreads, Shape::kSharedBytes, stream()>>>(maps, p, args, grid);
}

}  // namespace filterlab::handwritten::tiles
