// Box mean by running sums, every radius of the contract: the work per pixel does not grow
// with the radius (about 8 to 11 instructions per pixel, against 64 and 136
// for hw_wide_rows at r = 7 and 15). The column sums, the shuffles and the
// division are box_columns.cuh's.
//
// A warp owns a band of 32 lanes x 16 columns and walks a strip of kRows rows.
// Each new row adds the entering row and subtracts the leaving one, which was
// read 2r+1 rows earlier (an L1/L2 hit, not DRAM): 24 instructions per lane
// and row for any r.
// Strips alternate direction (even strips walk down, odd ones up), so two
// neighbouring strips read their 2r shared rows at about the same time: L2
// hits, not a second DRAM read. Loads and stores are 16 bytes per lane; the
// leaving rows and the output are streamed (evict first), which keeps the
// window's rows cached. Only the warps of the first and last bands run the
// code that clamps columns. Gold: reference::box.
#include <array>
#include <cstdint>
#include <utility>

#include "box_columns.cuh"
#include "registry.h"
#include "strip_words.cuh"

namespace filterlab::handwritten {
namespace {

using namespace box_columns;

constexpr int kThreads = 64;      // 2 warps, each its own band x strip
constexpr int kBlocksPerSM = 10;  // 20 warps: <= 96 registers
constexpr int kRows = 16;         // rows per strip (a warp's walk)
constexpr int kAhead = 4;         // rows loaded ahead of their use
// Why short strips: the kernel waits on its loads (long-scoreboard stalls),
// and the warps an SM holds are what hide that wait. A strip's running sum
// walks it serially and pays a warm-up of 2r + 1 rows, so longer strips waste
// less on warm-up but leave fewer warps for the same image; the latency is the
// larger cost, so strips stay short (16 rows, 4 loaded ahead), at every radius.
// More rows ahead cost registers, and so warps, for no shorter wait.

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
            store_bytes(dst, p.width - x0, v);
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
