// Box mean by running sums, every radius of the contract: the work per pixel does not grow
// with the radius (about 8 to 11 instructions per pixel, against 64 and 136
// for hw_wide_rows at r = 7 and 15).
//
// A warp owns a band of 32 lanes x 16 columns and walks a strip of kRows rows.
// Each lane keeps the vertical (2r+1)-row sums of its 16 columns in 8
// registers, two columns per register (16-bit lanes: 31 * 255 fits). Each new
// row adds the entering row and subtracts the leaving one, which was read 2r+1
// rows earlier (an L1/L2 hit, not DRAM): 24 instructions per lane and row for
// any r. The horizontal window needs r column sums on each side. They live in
// the neighbouring lanes (kBoxMaxRadius < 16), so they come by warp shuffles of the
// packed words. Lanes 0 and 31 are therefore halo lanes that store nothing,
// and a band covers 30 * 16 = 480 columns. Each lane then slides a 32-bit sum
// along its 16 outputs (one add-and-subtract per output), with the rounding
// bias n/2 folded in. It divides by n = (2r+1)^2 with one multiply-high,
// which is exact (see Magic).
// Strips alternate direction (even strips walk down, odd ones up), so two
// neighbouring strips read their 2r shared rows at about the same time: L2
// hits, not a second DRAM read. Loads and stores are 16 bytes per lane; the
// leaving rows and the output are streamed (evict first), which keeps the
// window's rows cached. Only the warps of the first and last bands run the
// code that clamps columns. Gold: reference::box.
#include <array>
#include <cstdint>
#include <utility>

#include "contract_ranges.h"
#include "plane.h"
#include "registry.h"

namespace filterlab::handwritten {
namespace {

constexpr int kThreads = 64;      // 2 warps, each its own band x strip
constexpr int kBlocksPerSM = 10;  // 20 warps: <= 96 registers
constexpr int kRows = 16;         // rows per strip (a warp's walk)
constexpr int kBand = 30 * 16;    // output columns per warp
constexpr int kAhead = 4;         // rows loaded ahead of their use
static_assert(kBoxMaxRadius < 16, "a window's columns past the lane's 16 must lie in the next lane's");
// Why short strips: the kernel waits on its loads (long-scoreboard stalls),
// and the warps an SM holds are what hide that wait. A strip's running sum
// walks it serially and pays a warm-up of 2r + 1 rows, so longer strips waste
// less on warm-up but leave fewer warps for the same image; the latency is the
// larger cost, so strips stay short (16 rows, 4 loaded ahead), at every radius.
// More rows ahead cost registers, and so warps, for no shorter wait.

// floor(s / n) = umulhi(s, M) with M = ceil(2^32 / n) = (2^32 + e) / n holds
// whenever s * e < 2^32 (the error s * e / (n 2^32) stays below 1/n); the
// largest sum is 255 n + n/2.
template <int R>
struct Magic {
    static constexpr uint32_t n = (2 * R + 1) * (2 * R + 1);
    static constexpr uint64_t m = ((uint64_t{1} << 32) + n - 1) / n;
    static_assert((255ull * n + n / 2) * (m * n - (uint64_t{1} << 32)) < (uint64_t{1} << 32));
};

// The 16 bytes x0..x0+15 of a row, clamped as FILTERS.md says. Chunks past
// width + 16 feed no output: zeros.
__device__ inline uint4 load_chunk(const uint8_t *row, int x0, int width) {
    if (x0 >= 0 && x0 + 16 <= width) return __ldg(reinterpret_cast<const uint4 *>(row + x0));
    if (x0 >= width + 16) return make_uint4(0, 0, 0, 0);
    const uint32_t edge = row[x0 < 0 ? 0 : width - 1] * 0x01010101u;
    if (x0 < 0 || x0 >= width) return make_uint4(edge, edge, edge, edge);
    // Straddles the right edge. Rows are padded to 64 bytes, so the 16 bytes
    // lie inside the allocation.
    const uint4 v = __ldg(reinterpret_cast<const uint4 *>(row + x0));
    uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int k = 0; k < 4; k++) {
        const int inside = width - x0 - 4 * k;  // bytes of word k inside the image
        const uint32_t keep = inside >= 4 ? ~0u : (inside <= 0 ? 0u : (1u << (8 * inside)) - 1);
        w[k] = (w[k] & keep) | (edge & ~keep);
    }
    return make_uint4(w[0], w[1], w[2], w[3]);
}

// A lane's 16 column sums: e[j] holds columns 4j (low half) and 4j+2 (high
// half), o[j] columns 4j+1 and 4j+3.
struct Cols {
    uint32_t e[4], o[4];
};

__device__ inline uint32_t evens(uint32_t w) { return __byte_perm(w, 0, 0x4240); }  // bytes 0, 2
__device__ inline uint32_t odds(uint32_t w) { return __byte_perm(w, 0, 0x4341); }   // bytes 1, 3

__device__ inline void add_row(Cols &c, uint4 v) {
    const uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int j = 0; j < 4; j++) {
        c.e[j] += evens(w[j]);
        c.o[j] += odds(w[j]);
    }
}

// Adds row `in` and drops row `out`. Every 16-bit lane ends in 0..7905, so the
// 32-bit arithmetic is exact per lane.
__device__ inline void slide_rows(Cols &c, uint4 in, uint4 out) {
    const uint32_t a[4] = {in.x, in.y, in.z, in.w}, b[4] = {out.x, out.y, out.z, out.w};
#pragma unroll
    for (int j = 0; j < 4; j++) {
        c.e[j] += evens(a[j]) - evens(b[j]);
        c.o[j] += odds(a[j]) - odds(b[j]);
    }
}

// Column sum k (-16..31; a constant after unrolling) of the lane: k < 0 from
// the left neighbour, k >= 16 from the right one.
__device__ inline uint32_t column(const Cols &left, const Cols &own, const Cols &right, int k) {
    const Cols &c = k < 0 ? left : (k < 16 ? own : right);
    const int lc = k & 15;
    const uint32_t w = lc & 1 ? c.o[lc >> 2] : c.e[lc >> 2];
    // w >> 16 as a multiply-high: the multiply pipe has room, the ALU has not.
    return lc & 2 ? __umulhi(w, 0x10000u) : w & 0xffffu;
}

// The lane's 16 means of one row, packed 4 per word. All lanes must call it
// (shuffles).
template <int R>
__device__ inline uint4 means(const Cols &own) {
    constexpr unsigned kAll = 0xffffffffu;
    // Only the words holding columns within R of the lane are moved.
    Cols left = {}, right = {};
#pragma unroll
    for (int j = 0; j < 4; j++) {
        if (4 * j + 2 >= 16 - R) left.e[j] = __shfl_up_sync(kAll, own.e[j], 1);
        if (4 * j + 3 >= 16 - R) left.o[j] = __shfl_up_sync(kAll, own.o[j], 1);
        if (4 * j <= R - 1) right.e[j] = __shfl_down_sync(kAll, own.e[j], 1);
        if (4 * j + 1 <= R - 1) right.o[j] = __shfl_down_sync(kAll, own.o[j], 1);
    }
    // The window of output 0, columns -R..R. The slide unpacks columns -R..14-R
    // and R+1..R+15 anyway; the rest (own columns 15-R..R when R >= 8) are
    // summed two per register first (at most 8 words: 8 * 7905 fits 16 bits).
    uint32_t sum = Magic<R>::n / 2, packed = 0;
#pragma unroll
    for (int k = -R; k <= R && k <= 14 - R; k++) sum += column(left, own, right, k);
#pragma unroll
    for (int j = 0; j < 4; j++) {
#pragma unroll
        for (int p = 0; p < 2; p++) {
            const int a = 4 * j + p, b = a + 2;  // the word's two columns
            const bool in_a = a >= 15 - R && a <= R, in_b = b >= 15 - R && b <= R;
            const uint32_t w = p ? own.o[j] : own.e[j];
            if (in_a && in_b) packed += w;
            else if (in_a) sum += w & 0xffffu;
            else if (in_b) sum += w >> 16;
        }
    }
    sum += (packed & 0xffffu) + (packed >> 16);
    uint32_t q[16];
    q[0] = __umulhi(sum, static_cast<uint32_t>(Magic<R>::m));
#pragma unroll
    for (int i = 1; i < 16; i++) {
        sum += column(left, own, right, i + R) - column(left, own, right, i - 1 - R);
        q[i] = __umulhi(sum, static_cast<uint32_t>(Magic<R>::m));
    }
    uint32_t out[4];
#pragma unroll
    for (int k = 0; k < 4; k++)
        out[k] = (q[4 * k] + q[4 * k + 1] * 0x100u) + (q[4 * k + 2] + q[4 * k + 3] * 0x100u) * 0x10000u;  // q < 256
    return make_uint4(out[0], out[1], out[2], out[3]);
}

// One warp's strip: rows y0, y0 + step, ... (rows of them). kEdge: some lane's
// chunk is not wholly inside the image (the first and last bands), so loads
// clamp and the last chunk is stored bytewise; inner bands skip that code.
template <int R, int AHEAD, bool kEdge>
__device__ inline void walk(const Plane &p, int x0, int lane, int y0, int step, int rows) {
    // height * pitch < 2^31 (kMaxSamples): 32-bit offsets.
    const uint32_t in_pitch = static_cast<uint32_t>(p.in_pitch), out_pitch = static_cast<uint32_t>(p.out_pitch);
    const bool inside = !kEdge || (x0 >= 0 && x0 + 16 <= p.width);
    const bool mine = lane >= 1 && lane <= 30;  // lanes 0 and 31 are halo only
    const uint8_t *in = p.in + (inside ? x0 : 0);
    uint8_t *out = p.out + (x0 > 0 ? x0 : 0);
    auto row = [&](int t) {  // strip row t's offset in the input, clamped
        return static_cast<uint32_t>(min(max(y0 + step * t, 0), p.height - 1)) * in_pitch;
    };
    auto load = [&](int t, bool last) {  // last: a leaving row's last use
        const uint32_t y = row(t);
        if (!inside) return load_chunk(p.in + y, x0, p.width);
        const uint4 *src = reinterpret_cast<const uint4 *>(in + y);
        return last ? __ldcs(src) : __ldg(src);
    };
    auto emit = [&](int t, const Cols &c) {  // output row t of the strip
        const uint4 v = means<R>(c);
        uint8_t *dst = out + static_cast<uint32_t>(y0 + step * t) * out_pitch;
        if (mine && inside) {
            __stcs(reinterpret_cast<uint4 *>(dst), v);
        } else if (kEdge && mine && x0 < p.width) {  // the chunk that straddles the right edge
            const uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll 1
            for (int i = 0; i < p.width - x0; i++) dst[i] = static_cast<uint8_t>(w[i / 4] >> (8 * (i % 4)));
        }
    };

    // Rows -R-1 .. R-1; the first slide adds row R and drops row -R-1.
    Cols c = {};
#pragma unroll 8
    for (int t = -R - 1; t < R; t++) add_row(c, load(t, false));
    uint4 entering[AHEAD], leaving[AHEAD];  // rows t + R and t - 1 - R of output t
#pragma unroll
    for (int d = 0; d < AHEAD; d++)
        if (d < rows) entering[d] = load(d + R, false), leaving[d] = load(d - 1 - R, true);
    for (int t = 0; t < rows; t += AHEAD) {
#pragma unroll
        for (int d = 0; d < AHEAD; d++) {
            if (t + d >= rows) break;  // the same for the whole warp
            slide_rows(c, entering[d], leaving[d]);
            const int next = t + d + AHEAD;
            if (next < rows) entering[d] = load(next + R, false), leaving[d] = load(next - 1 - R, true);
            emit(t + d, c);
        }
    }
}

template <int R, int ROWS, int AHEAD>
__global__ void __launch_bounds__(kThreads, kBlocksPerSM) box_running_sums_kernel(Plane p, int strips, int warps) {
    const int warp = static_cast<int>(blockIdx.x) * (kThreads / 32) + static_cast<int>(threadIdx.x) / 32;
    if (warp >= warps) return;  // whole warps only: the rest shuffle
    const int lane = static_cast<int>(threadIdx.x) & 31;
    const int strip = warp % strips, band = warp / strips * kBand;  // band: its first output column
    const int top = strip * ROWS, rows = p.height - top < ROWS ? p.height - top : ROWS;
    // Odd strips walk up, so each strip shares its first rows' reads with one
    // neighbour and its last rows' reads with the other.
    const int step = strip & 1 ? -1 : 1, y0 = strip & 1 ? top + rows - 1 : top;
    const int x0 = band + (lane - 1) * 16;
    if (band >= 16 && band + kBand + 16 <= p.width) walk<R, AHEAD, false>(p, x0, lane, y0, step, rows);  // the same for the warp
    else walk<R, AHEAD, true>(p, x0, lane, y0, step, rows);
}

template <int R, int ROWS, int AHEAD>
void launch(const Plane &p) {
    const int strips = (p.height + ROWS - 1) / ROWS;
    const int warps = strips * ((p.width + kBand - 1) / kBand);
    constexpr int kWarps = kThreads / 32;
    box_running_sums_kernel<R, ROWS, AHEAD><<<(warps + kWarps - 1) / kWarps, kThreads, 0, stream()>>>(p, strips, warps);
}

template <int ROWS, int AHEAD, std::size_t... Rs>
constexpr auto make_launchers(std::index_sequence<Rs...>) {
    return std::array<void (*)(const Plane &), sizeof...(Rs)>{&launch<static_cast<int>(Rs) + 1, ROWS, AHEAD>...};
}

template <int ROWS, int AHEAD>
void run(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    static constexpr auto launchers = make_launchers<ROWS, AHEAD>(std::make_index_sequence<kBoxMaxRadius>{});
    const int radius = static_cast<int>(params.at("radius"));
    for_each_plane(in, out, "box_running_sums_kernel", [&](const Plane &p) { launchers.at(radius - 1)(p); });
}

const VariantRegistration registration{with_algorithm(
    {"box", "hw_running_sums", Backend::cuda, Kind::handwritten, {}, run<kRows, kAhead>},
    "running_sums")};

}  // namespace
}  // namespace filterlab::handwritten
