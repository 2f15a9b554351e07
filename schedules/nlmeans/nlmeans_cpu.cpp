// CPU schedules of non-local means. The accumulation's update runs over the
// offsets outside the pixels (reorder), so every per-offset stage can be
// computed per offset at the offset loop (compute_at offsets.x) and reused by
// all channels. Outputs use GuardWithIf (any size); the per-offset stages may
// compute a little past a tile (RoundUp), which the clamped input makes safe.
#include "nlmeans.h"
#include "schedule_registry.h"

using namespace Halide;

namespace {

// A stage computed at `at`, vectorised over x, its update (if any) too.
void vectorized_at(Func stage, const LoopLevel &at, const Var &x, int vector) {
    stage.compute_at(at).vectorize(x, vector, TailStrategy::RoundUp);
    if (stage.has_update_definition()) stage.update().vectorize(x, vector, TailStrategy::RoundUp);
}

// The output in tiles of width x height (all channels of a tile together),
// spread over the cores, each tile's accumulators computed per tile; the
// accumulation's update is left for the caller to order.
template <typename Algorithm>
void parallel_tiles(Algorithm &p, int width, int height, int vector) {
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, tile{"tile"};
    p.output.compute_root()
        .tile(p.x, p.y, xo, yo, xi, yi, width, height, TailStrategy::GuardWithIf)
        .reorder(xi, yi, p.c, xo, yo)
        .fuse(xo, yo, tile)
        .parallel(tile)
        .vectorize(xi, vector, TailStrategy::GuardWithIf);
    p.accum.compute_at(p.output, tile).vectorize(p.x, vector, TailStrategy::RoundUp);
}

// Tiles of 64x32 outputs over all cores: per tile and offset, the squared
// differences, row sums, patch sums and weights of the tile (plus its patch
// halo) are computed vectorised into buffers of a few KB that stay in L1, and
// the accumulators of the tile too; nothing per offset leaves the tile.
template <typename Algorithm>
void tiles_per_offset(Algorithm &p, const Target &target) {
    const int vector = target.natural_vector_size<float>();
    const RVar &ox = p.offsets.x, &oy = p.offsets.y;
    parallel_tiles(p, 64, 32, vector);
    p.accum.update().reorder(p.x, p.y, p.c, ox, oy).vectorize(p.x, vector, TailStrategy::RoundUp);
    for (Func stage : {p.diff, p.patch_rows, p.patch, p.weight}) vectorized_at(stage, LoopLevel(p.accum, ox), p.x, vector);
}

}  // namespace

// Per offset, each stage over the whole image, serial and scalar: the
// integral-image order of work (no recomputation, whole-image intermediates),
// the baseline the other schedules are measured against.
FILTERLAB_SCHEDULE(nlmeans, Direct, cpu, naive, FRONTIER("the baseline every CPU schedule is measured against")) {
    const RVar &ox = p.offsets.x, &oy = p.offsets.y;
    p.accum.compute_root();
    p.accum.update().reorder(p.x, p.y, p.c, ox, oy);
    for (Func stage : {p.diff, p.patch_rows, p.patch, p.weight}) stage.compute_at(p.accum, ox);
    p.output.compute_root();
}

// The classic tiling (tiles_per_offset): nothing per offset leaves a tile's L1 buffers.
FILTERLAB_SCHEDULE(nlmeans, Direct, cpu, tiled, FRONTIER("the classic tiling per offset")) { tiles_per_offset(p, target); }

// `tiled` on the symmetric algorithm: a tile's weights per offset of half the
// window cover the tile and the tile moved by -d (about 0.7x the exponentials
// of `tiled` for 64x32 tiles at s = 10).
FILTERLAB_SCHEDULE(nlmeans, Symmetric, cpu, symmetric_tiled, FRONTIER("Symmetric's CPU schedule")) { tiles_per_offset(p, target); }

// Line buffers: tiles of 128x32, each offset walking down a tile's rows with the
// squared differences and row sums sliding (2p+1 rows kept of each): no halo row
// recomputed inside a tile, at the cost of the tile's accumulators (about 32 KB
// gray) held across the offset loop instead of a few KB.
FILTERLAB_SCHEDULE(nlmeans, Direct, cpu, sliding) {
    const int vector = target.natural_vector_size<float>();
    const RVar &ox = p.offsets.x, &oy = p.offsets.y;
    parallel_tiles(p, 128, 32, vector);
    p.accum.update().reorder(p.x, p.c, p.y, ox, oy).vectorize(p.x, vector, TailStrategy::RoundUp);
    for (Func stage : {p.diff, p.patch_rows}) {
        vectorized_at(stage, LoopLevel(p.accum, p.y), p.x, vector);
        stage.store_at(p.accum, ox);
    }
    for (Func stage : {p.patch, p.weight}) vectorized_at(stage, LoopLevel(p.accum, p.y), p.x, vector);
}
