// Schedules of the box filter's LaneRunningSums algorithm (generators/box_lanes.h):
// hw_running_sums' layout, a warp's lanes each owning a run of pixels.
#include <string>

#include "box_lanes.h"
#include "contract_ranges.h"
#include "schedule_helpers.h"
#include "schedule_registry.h"

using namespace Halide;
using filterlab::kBoxMaxRadius;
using filterlab::kBoxMinRadius;
using filterlab::box::LaneLayout;
using filterlab::box::LaneRunningSums;

// The lane layout is the algorithm's: its rows and words, from the point.
template <>
LaneRunningSums filterlab::schedules::construct<LaneRunningSums>(const LaneRunningSums::Inputs &inputs,
                                                                  const Point &point) {
    return LaneRunningSums(inputs, LaneLayout{.rows = point["rows"], .words = point["words"]});
}

namespace {

// The output's loops: a band of out_lanes runs across x (one run a lane,
// gpu_lanes), a strip of `rows` rows down y (unrolled), `warps` strips a
// block. `vector`: a run's pixels stored as one vector (under a guard, a run
// inside the image is still stored whole; only a run across its edge goes
// pixel by pixel), else unrolled byte stores.
void lane_output(LaneRunningSums &p, Stage s, int warps, bool vector, TailStrategy tail) {
    const LaneLayout &l = p.lanes;
    Var xo{"xo"}, xi{"xi"}, xl{"xl"}, xv{"xv"}, yo{"yo"}, yi{"yi"}, yb{"yb"}, yw{"yw"};
    const int run = 4 * l.words;
    s.split(p.x, xo, xi, l.out_lanes * run, tail)
        .split(xi, xl, xv, run)
        .split(p.y, yo, yi, l.rows, TailStrategy::GuardWithIf)
        .split(yo, yb, yw, warps, TailStrategy::GuardWithIf)
        .reorder(xv, yi, xl, yw, xo, yb, p.c)
        .unroll(yi)
        .gpu_blocks(xo, yb, p.c)
        .gpu_threads(yw)
        .gpu_lanes(xl);
    if (vector) {
        s.vectorize(xv);
    } else {
        s.unroll(xv);
    }
}

}  // namespace

// A warp walks a strip of `rows` rows over a band of 32 lanes of `words` words: a
// lane's column sums of the strip computed once into its registers, then each
// output lane slides its window sum along its run, taking the columns near its ends
// from its neighbours by warp shuffles. Why it should be fast: hw_running_sums'
// layout, no shared memory or barrier, a cost per pixel flat in r. Unlike the hand
// kernel, which streams the column sums down the strip, a strip's are all live at
// once (short strips pay the 2r+1 rows' warm-up more often). Specialised on each
// radius of the contract: the shuffles' lanes and words must be constants.
// Its space: rows a strip, words a lane, warps a block, vector loads of a lane's words.
FILTERLAB_SCHEDULE(box, LaneRunningSums, gpu, lanes, AXES("rows=[4],8 words=[2],4 warps=1,[2] vector=0,[1]"),
                   READS("words"),
                   CUDA_ONLY("warp_shuffles"),
                   FRONTIER("fastest Halide CUDA box at radius 7 and 15 in the one run")) {
    const LaneLayout &l = p.lanes;
    const int warps = point["warps"];
    for (int radius = kBoxMinRadius; radius <= kBoxMaxRadius; radius++) {
        Stage at_radius = p.output.specialize(p.radius == radius);
        // A width the bands divide needs no guard on x; another keeps its vector stores.
        lane_output(p, at_radius.specialize(p.width % (l.out_lanes * 4 * l.words) == 0), warps, true,
                    TailStrategy::RoundUp);
        lane_output(p, at_radius, warps, true, TailStrategy::GuardWithIf);
    }
    p.output.specialize_fail("box/lanes: the radius must be in " + std::to_string(kBoxMinRadius) + ".." +
                             std::to_string(kBoxMaxRadius));
    lane_output(p, p.output, warps, false, TailStrategy::GuardWithIf);  // (never run: the loops named below)
    p.lane_columns.compute_at(p.output, Var("yw"))  // a warp's
        .store_in(MemoryType::Register)
        .bound_storage(p.v, l.words)
        .bound_storage(p.half, 2)
        .bound_storage(p.lane, 32)
        .bound_storage(p.k, l.rows)
        .bound_storage(p.strip, 1)
        .bound_storage(p.band, 1)
        .bound_storage(p.c, 1);
    for (int stage = 0; stage < 3; stage++) {
        Stage s = p.lane_columns.update(stage);
        if (point["vector"]) {
            s.vectorize(p.v);
        } else {
            s.unroll(p.v);
        }
        s.unroll(p.half).gpu_lanes(p.lane);
        if (stage == 2) s.reorder(p.v, p.half, p.down, p.lane).unroll(p.down);
    }
    p.lane_sums.compute_at(p.output, Var("yi"))
        .store_in(MemoryType::Register)
        .bound_storage(p.i, 4 * l.words)
        .bound_storage(p.run, 1)
        .bound_storage(p.y, 1)
        .bound_storage(p.c, 1)
        .unroll(p.i);
    p.lane_sums.update(0).unscheduled();
    p.lane_sums.update(1).unroll(p.lane_window);
    p.lane_sums.update(2).unroll(p.lane_across);
}
