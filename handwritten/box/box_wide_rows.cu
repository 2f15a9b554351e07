// Our box kernel, aimed at the memory roofline, any radius of the contract.
//
// Each thread owns a 16-pixel column strip (one 16-byte load and one 16-byte
// store per row) and walks ROWS output rows down it. The horizontal halo comes
// from the neighbouring lanes' loads by warp shuffles (lanes 0 and 31 load
// theirs), so global memory is read about once. Row sums slide along the 16
// outputs; column sums are running sums: each new row adds one row sum and
// drops the row that left the window (re-read from L1/L2, not from DRAM).
// The radius is a template parameter so n = (2r+1)^2 is a constant and the
// division compiles to a multiply. Gold: reference::box.
#include <algorithm>
#include <array>
#include <utility>

#include "contract_ranges.h"
#include "plane.h"
#include "strip_words.cuh"
#include "registry.h"

namespace filterlab::handwritten {
namespace {

constexpr int kThreads = 128;
static_assert(kBoxMaxRadius <= 16, "a row's strip holds 16 pixels each side of the lane's");

struct Strip {  // 48 bytes of one row: x0-16 .. x0+31
    uint4 left, mid, right;
};

__device__ inline uint32_t byte_of(const Strip &s, int k) {  // k in 0..47, a compile-time constant after unrolling
    const uint4 &v = k < 16 ? s.left : (k < 32 ? s.mid : s.right);
    const int word = (k & 15) >> 2;
    const uint32_t w = word == 0 ? v.x : word == 1 ? v.y : word == 2 ? v.z : v.w;
    return (w >> (8 * (k & 3))) & 0xff;
}

__device__ inline uint4 shuffle(uint4 v, int delta, bool up) {
    auto move = [&](uint32_t w) {
        return up ? __shfl_up_sync(0xffffffffu, w, delta) : __shfl_down_sync(0xffffffffu, w, delta);
    };
    return make_uint4(move(v.x), move(v.y), move(v.z), move(v.w));
}

// Loads one row's strip; every lane of the warp must call it (shuffles).
__device__ inline Strip load_wide_strip(const uint8_t *row, int x0, int width, int lane) {
    const uint4 zero = make_uint4(0, 0, 0, 0);
    Strip s;
    // Rows are padded to 64 bytes, so a chunk that starts inside the image is
    // wholly inside the allocation.
    s.mid = x0 < width ? *reinterpret_cast<const uint4 *>(row + x0) : zero;
    s.left = shuffle(s.mid, 1, true);
    s.right = shuffle(s.mid, 1, false);
    if (lane == 0) s.left = x0 >= 16 && x0 - 16 < width ? *reinterpret_cast<const uint4 *>(row + x0 - 16) : zero;
    if (lane == 31) s.right = x0 + 16 < width ? *reinterpret_cast<const uint4 *>(row + x0 + 16) : zero;
    return s;
}

// The 16 horizontal sums of 2R+1 samples centred on x0..x0+15.
template <int R>
__device__ inline void row_sums(const uint8_t *row, int x0, int width, int lane, bool edge, uint32_t (&sums)[16]) {
    const Strip s = load_wide_strip(row, x0, width, lane);
    if (!edge) {
        uint32_t sum = 0;
#pragma unroll
        for (int k = 16 - R; k <= 16 + R; k++) sum += byte_of(s, k);
        sums[0] = sum;
#pragma unroll
        for (int i = 1; i < 16; i++) sums[i] = sum += byte_of(s, i + 16 + R) - byte_of(s, i + 15 - R);
    } else {  // the first and last strips: clamp every x (scalar loads, few threads)
        for (int i = 0; i < 16; i++) {
            uint32_t sum = 0;
            for (int k = -R; k <= R; k++) sum += row[clamp_index(x0 + i + k, width - 1)];
            sums[i] = sum;
        }
    }
}

template <int R>
__global__ void __launch_bounds__(kThreads) box_wide_rows_kernel(Plane p) {
    constexpr int kRows = R <= 2 ? 16 : 32;
    constexpr uint32_t n = (2 * R + 1) * (2 * R + 1);
    const int lane = threadIdx.x & 31;
    const int x0 = (blockIdx.x * kThreads + threadIdx.x) * 16;
    const int y0 = blockIdx.y * kRows;
    const bool edge = !(x0 >= 16 && x0 + 16 + R <= p.width);
    auto row = [&](int y) { return p.in + clamp_index(y, p.height - 1) * p.in_pitch; };

    uint32_t column[16] = {}, sums[16];
    for (int j = -R; j <= R; j++) {
        row_sums<R>(row(y0 + j), x0, p.width, lane, edge, sums);
#pragma unroll
        for (int i = 0; i < 16; i++) column[i] += sums[i];
    }
    for (int y = y0; y < y0 + kRows && y < p.height; y++) {
        if (x0 < p.width) {
            uint32_t packed[4] = {};
#pragma unroll
            for (int i = 0; i < 16; i++) packed[i / 4] |= ((column[i] + n / 2) / n) << (8 * (i % 4));
            uint8_t *out = p.out + y * p.out_pitch + x0;
            if (x0 + 16 <= p.width) {
                *reinterpret_cast<uint4 *>(out) = make_uint4(packed[0], packed[1], packed[2], packed[3]);
            } else {
                for (int i = 0; i < p.width - x0; i++) out[i] = static_cast<uint8_t>(packed[i / 4] >> (8 * (i % 4)));
            }
        }
        if (y + 1 < y0 + kRows && y + 1 < p.height) {  // slide the window down one row
            uint32_t leaving[16];
            row_sums<R>(row(y + R + 1), x0, p.width, lane, edge, sums);
            row_sums<R>(row(y - R), x0, p.width, lane, edge, leaving);
#pragma unroll
            for (int i = 0; i < 16; i++) column[i] += sums[i] - leaving[i];
        }
    }
}

// The 3x3 case, where the roofline is within reach: all input rows of a
// thread's 16 x kRows3 block are loaded up front (independent 16-byte loads
// in flight), the one-pixel halo comes from the neighbouring lanes as single
// words, the image edges are clamped in registers, and the sums run two
// pixels per 32-bit register (16-bit lanes: 9 * 255 fits). Only three rows of
// row sums are live at a time. (s + 4) / 9 is ((s + 4) * 7282) >> 16, exact
// for s + 4 <= 2299.
// Why 4 rows per thread: at 64 registers, 8 blocks of kThreads (128) threads
// share an SM. More rows re-read fewer halo rows but need more registers, so
// fewer warps hide the loads' latency, which costs more than the halo saves;
// a lower register cap would spill.
constexpr int kRows3 = 4;
constexpr uint32_t kLanes = 0x00ff00ffu;

__device__ inline uint32_t mean9(uint32_t sum) { return ((sum + 4) * 7282u) >> 16; }

struct RowSums {
    uint32_t even[4], odd[4];  // even[j]: pixels 4j and 4j+2; odd[j]: 4j+1 and 4j+3
};

__device__ inline RowSums row_sums3(const uint32_t (&w)[6]) {
    RowSums s;
#pragma unroll
    for (int j = 0; j < 4; j++) {
        const uint32_t a = w[j + 1];
        const uint32_t l = __funnelshift_l(w[j], a, 8), r = __funnelshift_r(a, w[j + 2], 8);
        s.even[j] = (l & kLanes) + (a & kLanes) + (r & kLanes);
        s.odd[j] = ((l >> 8) & kLanes) + ((a >> 8) & kLanes) + ((r >> 8) & kLanes);
    }
    return s;
}

__global__ void __launch_bounds__(kThreads, 8) box3x3_packed_kernel(Plane p) {
    const int lane = threadIdx.x;
    const int x0 = (blockIdx.x * 32 + threadIdx.x) * 16;
    const int y0 = (blockIdx.y * blockDim.y + threadIdx.y) * kRows3;
    if (y0 >= p.height) return;  // the whole warp: its lanes share y0
    uint4 mid[kRows3 + 2];
#pragma unroll
    for (int r = 0; r < kRows3 + 2; r++)
        mid[r] = load_strip(p.in + clamp_index(y0 + r - 1, p.height - 1) * p.in_pitch, x0, p.width);
    RowSums window[3];
#pragma unroll
    for (int r = 0; r < kRows3 + 2; r++) {
        const uint8_t *row = p.in + clamp_index(y0 + r - 1, p.height - 1) * p.in_pitch;
        window[0] = window[1];
        window[1] = window[2];
        window[2] = row_sums3(row_words(row, mid[r], x0, p.width, lane).w);
        if (r < 2) continue;
        const int y = y0 + r - 2;
        if (y >= p.height || x0 >= p.width) continue;
        uint32_t out[4];
#pragma unroll
        for (int j = 0; j < 4; j++) {
            const uint32_t e = window[0].even[j] + window[1].even[j] + window[2].even[j];
            const uint32_t o = window[0].odd[j] + window[1].odd[j] + window[2].odd[j];
            out[j] = mean9(e & 0xffff) | mean9(o & 0xffff) << 8 | mean9(e >> 16) << 16 | mean9(o >> 16) << 24;
        }
        store_strip(p.out + y * p.out_pitch + x0, x0, p.width, out);
    }
}

void launch_3x3(const Plane &p) {
    const int chunks = (p.width + 15) / 16;
    const dim3 block(32, kThreads / 32);
    box3x3_packed_kernel<<<dim3((chunks + 31) / 32, (p.height + kRows3 * block.y - 1) / (kRows3 * block.y)), block, 0, stream()>>>(p);
}

template <int R>
void launch(const Plane &p) {
    constexpr int kRows = R <= 2 ? 16 : 32;
    const int chunks = (p.width + 15) / 16;
    const dim3 grid((chunks + kThreads - 1) / kThreads, (p.height + kRows - 1) / kRows);
    box_wide_rows_kernel<R><<<grid, kThreads, 0, stream()>>>(p);
}

template <std::size_t... Rs>
constexpr auto make_launchers(std::index_sequence<Rs...>) {
    return std::array<void (*)(const Plane &), sizeof...(Rs)>{&launch<static_cast<int>(Rs) + 1>...};
}

void run(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    static constexpr auto launchers = make_launchers(std::make_index_sequence<kBoxMaxRadius>{});
    const int radius = static_cast<int>(params.at("radius"));
    for_each_plane(in, out, "box_wide_rows_kernel", [&](const Plane &p) {
        if (radius == 1) launch_3x3(p);
        else launchers.at(radius - 1)(p);
    });
}

const VariantRegistration registration{
    {"box", "hw_wide_rows", Backend::cuda, Kind::handwritten, {}, run}};

}  // namespace
}  // namespace filterlab::handwritten
