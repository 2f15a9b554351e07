// Box mean by running sums over rows staged in shared memory: the column sums
// and the division of hw_running_sums (box_columns.cuh), fed by the copy
// engine (row_ring.cuh) instead of each lane's loads.
//
// Why it is faster where the image does not fill the GPU many times over (a
// video frame): hw_running_sums holds the rows it has loaded ahead in
// registers and so walks short strips to keep warps resident, paying the
// 2r + 1 rows of a window's warm-up every 16 rows and reading each leaving row
// a second time from L2. Here each warp keeps a ring of the window's rows plus
// kAhead groups in flight, 512 bytes a row (its 480 columns and 16 either
// side), in shared memory: the leaving row is read from the ring, the copies
// in flight cost no registers, and a warp walks one strip as tall as the
// image's rows split among the warps the GPU holds at once, so the warm-up is
// paid once a warp. On a small image the strips are short, down to a row:
// the warps are then many, and a strip's time is mostly its warm-up's rows,
// which only add, where a taller one would walk the serial chain of a row's
// means more often, with too few warps to hide its latency.
// What it gives for that: the ring grows with r and takes warps (shared
// memory), and each group of rows costs a wait and a fetch; on an image many
// times the GPU's warps, where hw_running_sums's strips are short beside the
// image anyway, those costs dominate and that kernel is the faster.
// Gold: reference::box.
#include <array>
#include <cstdint>
#include <utility>

#include "box_columns.cuh"
#include "registry.h"
#include "row_ring.cuh"
#include "strip_words.cuh"

namespace filterlab::handwritten {
namespace {

using namespace box_columns;

constexpr int kWarps = 4;      // warps a block, each with its own ring and strip
constexpr int kSegment = 512;  // a warp's row: 16 halo columns, 480 outputs, 16 halo
constexpr int kGroup = 4;      // rows a copy group
constexpr int kAhead = 1;      // groups in flight beyond the window

// The window's 2r + 2 rows (the leaving one with the entering one) span at
// most (2r + 1) / kGroup + 2 groups.
template <int R>
constexpr int kSlots = (2 * R + 1) / kGroup + 2 + kAhead;

template <int R>
using Ring = RowRing<kSlots<R>, kGroup, kSegment>;

// One warp's strip: output rows top .. top + rows - 1 of the band at `band`.
// kEdge: some lane's 16 columns are not wholly inside the image, so its reads
// clamp and its last chunk is stored bytewise.
template <int R, bool kEdge>
__device__ void walk(const Ring<R> &ring, const Plane &p, int band, int lane, int top, int rows) {
    constexpr int kRingSlots = kSlots<R>;
    const int origin = band - 16, x0 = origin + 16 * lane;  // the segment's first column, the lane's
    const int begin = max(origin, 0), end = min(origin + kSegment, (p.width + 15) & ~15);
    const bool inside = !kEdge || (x0 >= 0 && x0 + 16 <= p.width);
    const bool mine = lane >= 1 && lane <= 30;  // lanes 0 and 31 are halo only
    const int count = rows + 2 * R;             // input rows top - R .. top + rows - 1 + R
    auto read = [&](const uint8_t *row) {       // the lane's 16 columns, clamped
        if (inside) return *reinterpret_cast<const uint4 *>(row + 16 * lane);
        if (x0 >= p.width + 16) return make_uint4(0, 0, 0, 0);  // feeds no output
        const uint32_t edge = row[(x0 < 0 ? 0 : p.width - 1) - origin] * 0x01010101u;
        if (x0 < 0 || x0 >= p.width) return make_uint4(edge, edge, edge, edge);
        return clamp_straddle(*reinterpret_cast<const uint4 *>(row + 16 * lane), x0, p.width, edge);
    };
    auto emit = [&](int y, const Cols &c) {
        const uint4 v = means<R>(c);
        uint8_t *dst = p.out + static_cast<std::ptrdiff_t>(y) * p.out_pitch + x0;
        if (mine && inside) {
            __stcs(reinterpret_cast<uint4 *>(dst), v);
        } else if (kEdge && mine && x0 >= 0 && x0 < p.width) {  // the chunk that straddles the right edge
            store_bytes(dst, p.width - x0, v);
        }
    };
    for (int g = 0; g < kRingSlots && g * kGroup < count; g++)
        ring.fetch(g, p, top - R + g * kGroup, origin, begin, end, lane);

    // Input row k (from top - R) is row k % kGroup of group k / kGroup.
    RingCursor<kRingSlots> enter, leave;
    const uint8_t *entering = nullptr, *leaving = ring.group(0);
    Cols c = {};
#pragma unroll 1
    for (int k = 0; k <= 2 * R; k++) {
        if (k % kGroup == 0) entering = ring.wait(enter.slot, enter.phase), enter.next();
        add_row(c, read(entering + k % kGroup * kSegment));
    }
    emit(top, c);
    // Output row t enters row 2R + t and drops row t - 1: with t = 1 + kGroup m + i,
    // both rows' places in their groups are known at compile time.
    for (int t0 = 1, dropped = 0; t0 < rows; t0 += kGroup, dropped++) {
#pragma unroll
        for (int i = 0; i < kGroup; i++) {
            const int t = t0 + i;
            if (t >= rows) break;  // the same for the whole warp
            constexpr int kIn = (2 * R + 1) % kGroup;
            if ((kIn + i) % kGroup == 0) entering = ring.wait(enter.slot, enter.phase), enter.next();
            slide_rows(c, read(entering + (kIn + i) % kGroup * kSegment), read(leaving + i * kSegment));
            if (i == kGroup - 1) {  // the leaving group is done with: its slot takes the next group
                const int next = dropped + kRingSlots;
                if (next * kGroup < count) ring.fetch(leave.slot, p, top - R + next * kGroup, origin, begin, end, lane);
                leave.next();
                leaving = ring.group(leave.slot);
            }
            emit(top + t, c);
        }
    }
}

template <int R>
__global__ void __launch_bounds__(32 * kWarps) box_staged_rows_kernel(Plane p, int bands, int rows_per_strip) {
    extern __shared__ __align__(128) uint8_t shared[];
    const int lane = static_cast<int>(threadIdx.x) & 31, warp_in_block = static_cast<int>(threadIdx.x) / 32;
    const int warp = static_cast<int>(blockIdx.x) * kWarps + warp_in_block;
    const int band = warp % bands * kBand, top = warp / bands * rows_per_strip;
    if (top >= p.height) return;  // the whole warp
    const Ring<R> ring(shared + warp_in_block * Ring<R>::kBytes, lane);
    const int rows = min(rows_per_strip, p.height - top);
    if (band >= 16 && band + kBand + 16 <= p.width) walk<R, false>(ring, p, band, lane, top, rows);
    else walk<R, true>(ring, p, band, lane, top, rows);
}

template <int R>
void launch(const Plane &p) {
    constexpr std::size_t kShared = kWarps * Ring<R>::kBytes;
    const auto kernel = box_staged_rows_kernel<R>;
    const int bands = (p.width + kBand - 1) / kBand;
    const StripGrid grid = strip_grid(kernel, kWarps, kShared, bands, p.height);
    kernel<<<(grid.warps + kWarps - 1) / kWarps, 32 * kWarps, kShared, stream()>>>(p, bands, grid.rows);
}

template <std::size_t... Rs>
constexpr auto make_launchers(std::index_sequence<Rs...>) {
    return std::array<void (*)(const Plane &), sizeof...(Rs)>{&launch<static_cast<int>(Rs) + 1>...};
}

void run(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    static constexpr auto launchers = make_launchers(std::make_index_sequence<kBoxMaxRadius>{});
    const int radius = static_cast<int>(params.at("radius"));
    for_each_plane(in, out, "box_staged_rows_kernel", [&](const Plane &p) { launchers.at(radius - 1)(p); });
}

const VariantRegistration registration{
    with_algorithm({"box", "hw_staged_rows", Backend::cuda, Kind::handwritten, {}, run}, "running_sums")};

}  // namespace
}  // namespace filterlab::handwritten
