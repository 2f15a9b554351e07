// CUDA schedules of non-local means. Outputs use GuardWithIf (any size);
// per-offset stages may compute a little past their tile (the input is
// clamped).
#include <stdexcept>

#include "nlmeans.h"
#include "schedule_registry.h"

using namespace Halide;

// The straightforward order, as the integral-image method: one simple, coalesced
// kernel per stage and offset over the whole image, at four round trips through
// global memory per offset. The per-offset stages cannot be at root (stored for all
// (2s+1)^2 offsets at once: 1.8 GB a stage at 1024^2 and s = 10), so they are
// computed at the host loop over offsets and stored at root folded to one offset.
FILTERLAB_SCHEDULE(nlmeans, Direct, gpu, per_offset, FRONTIER("the classic GPU schedule, one pass per offset")) {
    const RVar &ox = p.offsets.x, &oy = p.offsets.y;
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    p.output.compute_root().gpu_tile(p.x, p.y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf).gpu_blocks(p.c);
    p.accum.compute_root().gpu_tile(p.x, p.y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf).gpu_blocks(p.c);
    p.accum.update()
        .reorder(p.x, p.y, p.c, ox, oy)
        .gpu_tile(p.x, p.y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf)
        .gpu_blocks(p.c);
    // GuardWithIf, not RoundUp: a rounded-up patch_rows update reads diff
    // beyond the region diff has computed (compute-sanitizer initcheck),
    // values it then never uses.
    for (Func stage : {p.diff, p.patch_rows, p.weight}) {
        stage.store_root()
            .compute_at(p.accum, ox)
            .fold_storage(p.dx, 1)
            .fold_storage(p.dy, 1)
            .gpu_tile(p.x, p.y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf);
    }
    p.patch_rows.update().gpu_tile(p.x, p.y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf);
}

namespace {

// Blocks of 32 x tile_y outputs, a thread making `rows` of them down a column;
// the block's accumulators are computed at the block level (its loop `xo`),
// their update looping over the offsets outside the threads.
template <typename Algorithm>
void fused_blocks(Algorithm &p, int tile_y, int rows) {
    const RVar &ox = p.offsets.x, &oy = p.offsets.y;
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, yt{"yt"}, yr{"yr"};
    p.output.compute_root()
        .tile(p.x, p.y, xo, yo, xi, yi, 32, tile_y, TailStrategy::GuardWithIf)
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
}

// A stage computed per offset over its whole region by the block's threads,
// 32 x 8 at a time, into shared memory: `fused` rounds the region up to
// whole 32 x 8 tiles, the staged schedules (short of shared memory) guard.
template <typename Algorithm>
void shared_per_offset(Func stage, const Algorithm &p, TailStrategy tail = TailStrategy::RoundUp) {
    Var sxo{"sxo"}, syo{"syo"}, sxi{"sxi"}, syi{"syi"};
    stage.compute_at(p.accum, p.offsets.x).tile(p.x, p.y, sxo, syo, sxi, syi, 32, 8, tail).gpu_threads(sxi, syi);
}

// The differences and the row sums of the patch in shared memory; each row
// sum is accumulated in a register (computed per thread) and stored once.
template <typename Algorithm>
void shared_row_sums(Algorithm &p, const Func &consumer, TailStrategy tail = TailStrategy::RoundUp) {
    Func rows_shared = p.patch_rows.in(consumer);
    shared_per_offset(p.diff, p, tail);
    shared_per_offset(rows_shared, p, tail);
    p.patch_rows.compute_at(rows_shared, Var("sxi"));
    p.patch_rows.update().specialize(p.patch_radius == 3).unroll(p.across.x);
}

// Per thread: the weights and patch sums of its `rows` outputs, in registers,
// the patch loops unrolled for the default patch (p = 3).
template <typename Algorithm>
void weights_per_thread(Algorithm &p) {
    for (Func stage : {p.weight, p.patch}) stage.compute_at(p.accum, p.x).unroll(p.y);
    p.patch.update().unroll(p.y);
    p.patch.update().specialize(p.patch_radius == 3).unroll(p.down.x);
}

// The block's input tile and its halo (s + p a side) staged once into shared memory,
// so the per-offset stages read it there, not from global memory (HALIDE_GPU.md's
// first NL-means lever). As bytes: as floats an RGB tile alone fills the 48 KB that
// Halide 21's CUDA runtime launches with; even so the staged schedules launched with
// 48 KB (all but fused_staged_wide, which the launch hook opts in to more) need s <= 10
// and p <= 3 (SUPPORTS). (The second lever, accumulators in registers across the
// offsets, needs gpu_lanes, as in warp_register_sums below: under gpu_threads a
// block-level Register array is the whole block's in every thread's local memory.)
template <typename Algorithm>
void staged_input(Algorithm &p) {
    Var sxo{"sxo"}, syo{"syo"}, sxi{"sxi"}, syi{"syi"};
    Func staged = p.input.in(p.clamped);
    const std::vector<Var> xyc = staged.args();  // the input's own pure variables
    staged.compute_at(p.output, Var("xo"))
        .tile(xyc[0], xyc[1], sxo, syo, sxi, syi, 32, 8, TailStrategy::GuardWithIf)
        .gpu_threads(sxi, syi);
}

// What the staged schedules share: fused's blocks and staged_input.
void fused_and_staged(filterlab::nlmeans::Direct &p, int tile_y, int rows) {
    fused_blocks(p, tile_y, rows);
    weights_per_thread(p);
    shared_row_sums(p, p.patch, TailStrategy::GuardWithIf);
    staged_input(p);
}

// The scatter schedules' patch row sums of a source tile (32 x tile_y and its
// patch halo), per offset (at `offset` of `consumer`), in shared memory.
template <typename Algorithm>
void patch_rows_in_shared(Algorithm &p, const Func &consumer, const RVar &offset, int tile_y) {
    Var ro{"ro"}, ri{"ri"}, qo{"qo"}, qi{"qi"};
    p.patch_rows.compute_at(consumer, offset)
        .store_in(MemoryType::GPUShared)
        .tile(p.x, p.y, ro, qo, ri, qi, 32, tile_y, TailStrategy::GuardWithIf)
        .gpu_threads(ri, qi);
    p.patch_rows.update()
        .tile(p.x, p.y, ro, qo, ri, qi, 32, tile_y, TailStrategy::GuardWithIf)
        .gpu_threads(ri, qi);
}

}  // namespace

// Fused: a block owns 32 x tile_y outputs and loops over the offsets itself; per
// offset its threads put the tile's squared differences and row sums (with the
// patch halo) in shared memory, then each thread sums `rows` outputs' patches
// vertically, weighs them and accumulates into the block's accumulators: no
// per-offset stage touches global memory. The default patch (p = 3) is unrolled.
// Its space: the tile's height (more sharing; fewer blocks), outputs a thread down.
FILTERLAB_SCHEDULE(nlmeans, Direct, gpu, fused, AXES("tile_y=8,16,[32],64 rows=2,[4],8"),
                   FRONTIER("the classic fused GPU schedule")) {
    fused_blocks(p, point["tile_y"], point["rows"]);
    weights_per_thread(p);
    shared_row_sums(p, p.patch);
}

// fused, with the input staged once per block (staged_input): the per-offset
// stages lose their clamps, byte loads and conversions.
FILTERLAB_SCHEDULE(nlmeans, Direct, gpu, fused_staged, SUPPORTS("search=1..10;patch=0..3"),
                   AXES("tile_y=16,[32] rows=2,[4],8")) {
    fused_and_staged(p, point["tile_y"], point["rows"]);
}

// fused_staged without its limits, on CUDA: a launch that needs more than the
// 48 KB of shared memory a kernel gets by default is opted in to more (up to
// 227 KB on an H100) by the launch hook (runtime/languages/halide_cuda_launch.h),
// so the staged tile takes the contract's larger radii (checked up to s = 12,
// p = 5; at s = 30, p = 10 it needs about 56 KB) and taller tiles (fewer halos
// a pixel). Its space: the tile's height, outputs a thread down.
FILTERLAB_SCHEDULE(nlmeans, Direct, gpu, fused_staged_wide, AXES("tile_y=16,[32],64 rows=2,[4],8"),
                   CUDA_ONLY("more than 48 KB of shared memory: NVIDIA's OpenCL gives a work-group 48 KB")) {
    // Halide compiles it for OpenCL, whose work-groups launch with 48 KB at most:
    // its larger radii would fail at run time, so it refuses here.
    if (target.has_feature(Target::OpenCL)) {
        throw std::invalid_argument("nlmeans/fused_staged_wide: no OpenCL twin: a work-group gets 48 KB");
    }
    fused_and_staged(p, point["tile_y"], point["rows"]);
}

// The symmetric algorithm on fused_staged's blocks: per offset of half the
// window, the weights of the tile and of the tile moved by -d go to shared
// memory (each is read at two places), their patch sums taken per pixel in
// registers; about 0.77x the exponentials of fused for its 32 x 16 tiles at s = 10.
FILTERLAB_SCHEDULE(nlmeans, Symmetric, gpu, symmetric, SUPPORTS("search=1..10;patch=0..3"),
                   AXES("tile_y=8,[16] rows=2,[4],8"),
                   CUDA_ONLY("pocl_unwritten"),
                   FRONTIER("Symmetric's best GPU schedule")) {
    // Its OpenCL code leaves outputs unwritten on PoCL (the CUDA library is
    // exact). It is the input staged as bytes (input.in()) in this schedule:
    // staging the float `clamped` instead passes on PoCL, and fused_staged
    // stages bytes and passes. No twin until that is understood.
    if (target.has_feature(Target::OpenCL)) {
        throw std::invalid_argument("nlmeans/symmetric: no OpenCL twin: its outputs stay unwritten on PoCL");
    }
    fused_blocks(p, point["tile_y"], point["rows"]);
    shared_per_offset(p.weight, p, TailStrategy::GuardWithIf);
    p.patch.compute_at(p.weight, Var("sxi"));
    p.patch.update().specialize(p.patch_radius == 3).unroll(p.down.x);
    shared_row_sums(p, p.patch, TailStrategy::GuardWithIf);
    staged_input(p);
}

namespace {

// Accumulators in registers across the offset loop, as apps/conv_layer keeps them: a
// block is one warp owning 32 x `rows` outputs, the accumulators a block-level
// Register array split across its lanes (gpu_lanes), every other index unrolled
// (the output specialised for gray and RGB, so the weights' sum accum(x, y, C) has a
// constant index). Per offset the warp computes its tile's stages in shared memory;
// the input tile and halo are staged once a block.
template <typename Algorithm>
void warp_register_sums(Algorithm &p, int rows) {
    const RVar &ox = p.offsets.x, &oy = p.offsets.y;
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    p.output.compute_root()
        .tile(p.x, p.y, xo, yo, xi, yi, 32, rows, TailStrategy::GuardWithIf)
        .reorder(p.c, yi, xi, xo, yo)
        .unroll(yi)
        .gpu_blocks(xo, yo)
        .gpu_lanes(xi);
    p.accum.compute_at(p.output, xo)
        .store_in(MemoryType::Register)
        .bound_extent(p.x, 32)
        .bound_extent(p.y, rows)
        .bound_extent(p.c, 4)  // C + 1 <= 4: FILTERS.md has C = 1 or 3
        .gpu_lanes(p.x)
        .unroll(p.y)
        .unroll(p.c);
    p.accum.update().reorder(p.c, p.y, p.x, ox, oy).gpu_lanes(p.x).unroll(p.y).unroll(p.c);
    p.output.specialize(p.channels == 1);
    p.output.specialize(p.channels == 3).unroll(p.c);
    Func staged = p.input.in(p.clamped);
    for (Func stage : {staged, p.diff, p.patch_rows, p.patch, p.weight}) {
        Var lo{"lo"}, li{"li"};
        const bool input = stage.name() == staged.name();
        const LoopLevel at = input ? LoopLevel(p.output, xo) : LoopLevel(p.accum, ox);
        const Var x = input ? staged.args()[0] : p.x;  // the input's own pure variable
        stage.compute_at(at).store_in(MemoryType::GPUShared).split(x, lo, li, 32, TailStrategy::GuardWithIf);
        stage.gpu_lanes(li);
        if (stage.has_update_definition()) {
            stage.update().split(p.x, lo, li, 32, TailStrategy::GuardWithIf).gpu_lanes(li);
        }
    }
}

}  // namespace

// warp_register_sums on the direct algorithm. CUDA only (OpenCL refuses
// gpu_lanes). Its space: the rows a warp owns (more share each offset's
// halo; more registers).
FILTERLAB_SCHEDULE(nlmeans, Direct, gpu, warp_registers, SUPPORTS("search=1..10;patch=0..3"), AXES("rows=4,[8],16"),
                   CUDA_ONLY("warp_shuffles")) {
    warp_register_sums(p, point["rows"]);
}

// warp_register_sums on the symmetric algorithm: the weights of the tile and
// of the tile moved by -d in shared memory, half the window's offsets.
FILTERLAB_SCHEDULE(nlmeans, Symmetric, gpu, symmetric_warp_registers, SUPPORTS("search=1..10;patch=0..3"),
                   AXES("rows=4,[8],16"),
                   CUDA_ONLY("warp_shuffles")) {
    warp_register_sums(p, point["rows"]);
}

// SymmetricScatter as hw_symmetric runs it: a block owns 32 x tile_y sources and
// loops over half the window's offsets; per offset the tile's patch row sums go to
// shared memory, each thread makes its source's weight in registers and atomically
// adds it, times J, to its source's and its target's accumulators. Why it should be
// fast: each weight computed once and used twice, no halo of weights recomputed (as
// in `symmetric`). Unlike the hand kernel, which keeps its sums in registers, every
// term is an atomic add to global memory. Its space: the tile's height.
FILTERLAB_SCHEDULE(nlmeans, SymmetricScatter, gpu, scatter, AXES("tile_y=4,8,[16]"),
                   CUDA_ONLY("pocl_unwritten"),
                   FRONTIER("fastest Halide CUDA NL-means in the one run (SymmetricScatter)")) {
    // Its OpenCL code (float atomic adds) fails on PoCL: a 1 x 1 image's
    // output stays poisoned and the process aborts ("invalid fastbin entry").
    if (target.has_feature(Target::OpenCL)) {
        throw std::invalid_argument("nlmeans/scatter: no OpenCL twin: on PoCL its output stays unwritten");
    }
    const RVar &k = p.scatter[0], &sx = p.scatter[1], &sy = p.scatter[2], &ox = p.scatter[3], &oy = p.scatter[4];
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    p.output.compute_root().gpu_tile(p.x, p.y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf).gpu_blocks(p.c);
    p.accum.compute_root().gpu_tile(p.x, p.y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf).gpu_blocks(p.c);
    RVar sxo{"sxo"}, sxi{"sxi"}, syo{"syo"}, syi{"syi"};
    Var cc{"cc"}, ci{"ci"};
    p.accum.update()
        .atomic()
        .split(sx, sxo, sxi, 32)
        .split(sy, syo, syi, point["tile_y"])
        .split(p.c, cc, ci, 2, TailStrategy::GuardWithIf)  // gray: the sum and the weight, unrolled
        .reorder(ci, k, cc, sxi, syi, ox, oy, sxo, syo)
        .unroll(ci)
        .unroll(k)
        .gpu_blocks(sxo, syo)
        .gpu_threads(sxi, syi);
    // Gray with the default patch: the channel loop and the patch loops gone.
    p.accum.update().specialize(p.channels == 1 && p.patch_radius == 3);
    p.weight.compute_at(p.accum, sxi);
    p.patch.compute_at(p.accum, sxi);
    p.patch.update().specialize(p.patch_radius == 3).unroll(p.down.x);
    patch_rows_in_shared(p, p.accum, ox, point["tile_y"]);
    p.patch_rows.update().specialize(p.patch_radius == 3).unroll(p.across.x);
}

// GatherScatter with its two reductions' loops fused (compute_with): a block owns
// 32 x tile_y sources and loops over half the window's offsets; per offset each
// thread computes its source's weight once, adds w J(S + d) to its source's own
// sum and w J(S) to S + d's, both atomically: compute_with fuses only loops of
// one kind, so the gather is stored through a clamp (an impure RVar) as the
// scatter is.
// Why it should be fast: each weight computed once for its two uses, as in
// scatter, with the two uses written as reductions of their own.
FILTERLAB_SCHEDULE(nlmeans, GatherScatter, gpu, gather_scatter, AXES("tile_y=4,8,[16]"),
                   CUDA_ONLY("float atomic adds, as scatter, whose OpenCL code fails on PoCL")) {
    if (target.has_feature(Target::OpenCL)) {
        throw std::invalid_argument("nlmeans/gather_scatter: no OpenCL twin: scatter's float atomic adds fail on PoCL");
    }
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    p.output.compute_root().gpu_tile(p.x, p.y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf).gpu_blocks(p.c);
    for (Func sums : {p.forward, p.backward})
        sums.compute_root().gpu_tile(p.x, p.y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf).gpu_blocks(p.c);
    auto tiles = [&](Stage stage, const RDom &r) {
        RVar sxo{"sxo"}, sxi{"sxi"}, syo{"syo"}, syi{"syi"};
        stage.split(r[0], sxo, sxi, 32, TailStrategy::GuardWithIf)
            .split(r[1], syo, syi, point["tile_y"], TailStrategy::GuardWithIf)
            .reorder(p.c, sxi, syi, r[2], r[3], sxo, syo)
            .gpu_blocks(sxo, syo)
            .gpu_threads(sxi, syi);
        return sxi;
    };
    tiles(p.forward.update().atomic(), p.gather);
    const RVar sxi = tiles(p.backward.update().atomic(), p.scatter);
    p.forward.update().compute_with(p.backward.update(), sxi, LoopAlignStrategy::NoAlign);
    p.weight.compute_at(p.backward, sxi);
    p.patch.compute_at(p.backward, sxi);
    patch_rows_in_shared(p, p.backward, p.scatter[2], point["tile_y"]);
}
