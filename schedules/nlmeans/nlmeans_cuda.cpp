// CUDA schedules of non-local means. Outputs use GuardWithIf (any size);
// per-offset stages may compute a little past their tile (the input is
// clamped).
#include "nlmeans.h"
#include "schedule_registry.h"

using namespace Halide;

// The straightforward order, one kernel per stage and offset over the whole
// image (diff, row sums, vertical sums with weights, accumulation; the row
// sums' initialisation is one more), as the integral-image method
// does: every kernel is simple and coalesced, at the cost of four round trips
// through global memory per offset. Truly compute_root is not possible for
// the per-offset stages: at root they would be stored for all (2s+1)^2
// offsets at once (1.8 GB per stage for 1024^2 and s = 10), so they are
// computed at the host loop over offsets, the outermost level Halide allows
// inside a reduction, and stored at root folded to one offset.
FILTERLAB_SCHEDULE(nlmeans, gpu, per_offset) {
    const RVar &ox = p.offsets.x, &oy = p.offsets.y;
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    p.output.compute_root().gpu_tile(p.x, p.y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf).gpu_blocks(p.c);
    p.accum.compute_root().gpu_tile(p.x, p.y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf).gpu_blocks(p.c);
    p.accum.update()
        .reorder(p.x, p.y, p.c, ox, oy)
        .gpu_tile(p.x, p.y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf)
        .gpu_blocks(p.c);
    // GuardWithIf, not RoundUp: a rounded-up patch_rows update read diff
    // beyond the region diff had computed (compute-sanitizer initcheck:
    // reports/checks/gpu_sanitize_h100.txt), values it then never used.
    for (Func stage : {p.diff, p.patch_rows, p.weight}) {
        stage.store_root()
            .compute_at(p.accum, ox)
            .fold_storage(p.dx, 1)
            .fold_storage(p.dy, 1)
            .gpu_tile(p.x, p.y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf);
    }
    p.patch_rows.update().gpu_tile(p.x, p.y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf);
}

// Fused: each block owns 32x32 outputs and loops over the offsets itself.
// Per offset its threads compute the tile's squared differences (with the
// patch halo) and row sums into shared memory; then each thread sums 4
// outputs' columns of row sums vertically (the 2p+4 rows it needs loaded
// once), takes the weights and accumulates into the block's shared
// accumulators: no per-offset stage touches global memory, and the input
// reads are L1 hits. For the default patch (p = 3) the patch loops are
// unrolled, which removes their overhead and lets the vertical sums share
// loads; other radii run the same schedule with loops. Its space: the tile's
// height (more outputs share each offset's staged rows; fewer blocks) and the
// outputs per thread down it (more loads shared; more registers).
FILTERLAB_SCHEDULE(nlmeans, gpu, fused, AXES("tile_y=8,16,[32],64 rows=2,[4],8")) {
    const RVar &ox = p.offsets.x, &oy = p.offsets.y;
    const int rows = point["rows"];
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, yt{"yt"}, yr{"yr"};
    p.output.compute_root()
        .tile(p.x, p.y, xo, yo, xi, yi, 32, point["tile_y"], TailStrategy::GuardWithIf)
        .split(yi, yt, yr, rows, TailStrategy::GuardWithIf)
        .reorder(p.c, yr, xi, yt, xo, yo)
        .unroll(yr)
        .gpu_blocks(xo, yo)
        .gpu_threads(xi, yt);
    p.accum.compute_at(p.output, xo).split(p.y, yt, yr, rows, TailStrategy::RoundUp).unroll(yr).gpu_threads(p.x, yt);
    p.accum.update()
        .split(p.y, yt, yr, rows, TailStrategy::RoundUp)
        .reorder(yr, p.c, p.x, yt, ox, oy)
        .unroll(yr)
        .gpu_threads(p.x, yt);
    // Per thread: the weights and patch sums of its 4 outputs, in registers.
    for (Func stage : {p.weight, p.patch}) stage.compute_at(p.accum, p.x).unroll(p.y);
    p.patch.update().unroll(p.y);
    p.patch.update().specialize(p.patch_radius == 3).unroll(p.down.x);
    // The differences and the row sums of the tile in shared memory; each row
    // sum is accumulated in a register (computed per thread) and stored once.
    Func rows_shared = p.patch_rows.in(p.patch);
    Var sxo{"sxo"}, syo{"syo"}, sxi{"sxi"}, syi{"syi"};
    for (Func stage : {p.diff, rows_shared}) {
        stage.compute_at(p.accum, ox)
            .tile(p.x, p.y, sxo, syo, sxi, syi, 32, 8, TailStrategy::RoundUp)
            .gpu_threads(sxi, syi);
    }
    p.patch_rows.compute_at(rows_shared, sxi);
    p.patch_rows.update().specialize(p.patch_radius == 3).unroll(p.across.x);
}
