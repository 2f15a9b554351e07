// Our box kernel, aimed at the memory roofline, any radius 1..15.
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

#include "cuda_check.h"
#include "registry.h"

namespace filterlab::handwritten {
namespace {

constexpr int kThreads = 128;

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
__device__ inline Strip load_strip(const uint8_t *row, int x0, int width, int lane) {
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
    const Strip s = load_strip(row, x0, width, lane);
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

// The 3x3 case, where the roofline is within reach: all ten input rows of a
// thread's 16x8 block are loaded up front (ten independent 16-byte loads in
// flight), the one-pixel halo comes from the neighbouring lanes as single
// words, and the sums run two pixels per 32-bit register (16-bit lanes:
// 9 * 255 fits). (s + 4) / 9 is ((s + 4) * 7282) >> 16, exact for s + 4 <= 2299.
constexpr int kRows3 = 8;
constexpr uint32_t kLanes = 0x00ff00ffu;

__device__ inline uint8_t mean9(uint32_t sum) { return static_cast<uint8_t>(((sum + 4) * 7282u) >> 16); }

__global__ void __launch_bounds__(kThreads) box3x3_packed_kernel(Plane p) {
    const int lane = threadIdx.x;
    const int x0 = (blockIdx.x * 32 + threadIdx.x) * 16;
    const int y0 = (blockIdx.y * blockDim.y + threadIdx.y) * kRows3;
    const bool inside = x0 >= 16 && x0 + 17 <= p.width;
    if (y0 >= p.height) return;  // the whole warp: its lanes share y0
    // Load rows y0-1 .. y0+kRows3 (clamped) with their halo words.
    uint4 mid[kRows3 + 2];
    uint32_t left[kRows3 + 2], right[kRows3 + 2];
#pragma unroll
    for (int r = 0; r < kRows3 + 2; r++) {
        const uint8_t *row = p.in + clamp_index(y0 + r - 1, p.height - 1) * p.in_pitch;
        mid[r] = x0 < p.width ? *reinterpret_cast<const uint4 *>(row + x0) : make_uint4(0, 0, 0, 0);
        left[r] = __shfl_up_sync(0xffffffffu, mid[r].w, 1);
        right[r] = __shfl_down_sync(0xffffffffu, mid[r].x, 1);
        if (lane == 0 && x0 >= 16) left[r] = *reinterpret_cast<const uint32_t *>(row + x0 - 4);
        if (lane == 31 && x0 + 16 < p.width) right[r] = *reinterpret_cast<const uint32_t *>(row + x0 + 16);
    }
    if (!inside) return;  // edge strips of a mixed warp: done by box_edge_strips_kernel
    // Horizontal 3-sums: even[r][j] holds pixels 4j and 4j+2, odd[r][j] 4j+1 and 4j+3.
    uint32_t even[kRows3 + 2][4], odd[kRows3 + 2][4];
#pragma unroll
    for (int r = 0; r < kRows3 + 2; r++) {
        const uint32_t w[6] = {left[r], mid[r].x, mid[r].y, mid[r].z, mid[r].w, right[r]};
#pragma unroll
        for (int j = 0; j < 4; j++) {
            const uint32_t a = w[j + 1];
            const uint32_t l = __funnelshift_l(w[j], a, 8), rr = __funnelshift_r(a, w[j + 2], 8);
            even[r][j] = (l & kLanes) + (a & kLanes) + (rr & kLanes);
            odd[r][j] = ((l >> 8) & kLanes) + ((a >> 8) & kLanes) + ((rr >> 8) & kLanes);
        }
    }
#pragma unroll
    for (int r = 0; r < kRows3; r++) {
        if (y0 + r >= p.height) break;
        uint32_t out[4];
#pragma unroll
        for (int j = 0; j < 4; j++) {
            const uint32_t e = even[r][j] + even[r + 1][j] + even[r + 2][j];
            const uint32_t o = odd[r][j] + odd[r + 1][j] + odd[r + 2][j];
            out[j] = mean9(e & 0xffff) | mean9(o & 0xffff) << 8 | mean9(e >> 16) << 16 | mean9(o >> 16) << 24;
        }
        *reinterpret_cast<uint4 *>(p.out + (y0 + r) * p.out_pitch + x0) = make_uint4(out[0], out[1], out[2], out[3]);
    }
}

// The strips the packed kernel leaves: the first one and those reaching the
// right edge, with every x clamped. Few threads.
__global__ void box3x3_edge_strips_kernel(Plane p, int first_edge_chunk) {
    const int chunk = blockIdx.x == 0 ? 0 : first_edge_chunk + blockIdx.x - 1;
    const int x = chunk * 16 + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    uint32_t sum = 0;
    for (int j = -1; j <= 1; j++) {
        const uint8_t *row = p.in + clamp_index(y + j, p.height - 1) * p.in_pitch;
        for (int i = -1; i <= 1; i++) sum += row[clamp_index(x + i, p.width - 1)];
    }
    p.out[y * p.out_pitch + x] = mean9(sum);
}

void launch_3x3(const Plane &p) {
    const int chunks = (p.width + 15) / 16;
    const dim3 block(32, kThreads / 32);
    box3x3_packed_kernel<<<dim3((chunks + 31) / 32, (p.height + kRows3 * block.y - 1) / (kRows3 * block.y)), block>>>(p);
    // Chunks that are not `inside`: chunk 0 and every chunk c with 16c + 17 > width.
    const int first_edge_chunk = std::max(1, (p.width - 17) / 16 + 1);
    const int edge_chunks = std::max(0, chunks - first_edge_chunk);
    box3x3_edge_strips_kernel<<<dim3(1 + edge_chunks, (p.height + 15) / 16), dim3(16, 16)>>>(p, first_edge_chunk);
}

template <int R>
void launch(const Plane &p) {
    constexpr int kRows = R <= 2 ? 16 : 32;
    const int chunks = (p.width + 15) / 16;
    const dim3 grid((chunks + kThreads - 1) / kThreads, (p.height + kRows - 1) / kRows);
    box_wide_rows_kernel<R><<<grid, kThreads>>>(p);
}

template <std::size_t... Rs>
constexpr auto make_launchers(std::index_sequence<Rs...>) {
    return std::array<void (*)(const Plane &), sizeof...(Rs)>{&launch<static_cast<int>(Rs) + 1>...};
}

void run(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    static constexpr auto launchers = make_launchers(std::make_index_sequence<15>{});
    const int radius = static_cast<int>(params.at("radius"));
    for (int c = 0; c < in.channels; c++) {
        if (radius == 1) launch_3x3(plane(in, out, c));
        else launchers.at(radius - 1)(plane(in, out, c));
    }
    check_launch("box_wide_rows_kernel");
}

const VariantRegistration registration{
    {"box", "hw_wide_rows", Backend::cuda, Kind::handwritten, parse_supports("radius=1..15"), run}};

}  // namespace
}  // namespace filterlab::handwritten
