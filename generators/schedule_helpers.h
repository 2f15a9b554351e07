// Scheduling patterns that several filters' schedules share.
#pragma once

#include "Halide.h"

namespace filterlab::schedules {

// The output in strips of `rows` rows of one channel, the strips spread over
// the cores, each row vectorised over x by `vector` lanes. Works for any
// pipeline with Vars x, y, c and an output Func.
struct Strips {
    Halide::Var strip{"strip"}, yi{"yi"};
};

template <typename Pipeline>
Strips parallel_strips(Pipeline &p, int rows, int vector) {
    using namespace Halide;
    Strips s;
    Var yo{"yo"};
    p.output.split(p.y, yo, s.yi, rows, TailStrategy::GuardWithIf)
        .fuse(yo, p.c, s.strip)
        .parallel(s.strip)
        .vectorize(p.x, vector, TailStrategy::GuardWithIf);
    return s;
}

}  // namespace filterlab::schedules

namespace filterlab::schedules {

// How a thread's adjacent pixels are computed: as one vector (one vector
// store), or unrolled one by one (for stages that do not vectorise well, such
// as median's per-byte networks).
enum class Across { vectorized, unrolled };

// GPU blocks of 32 x `warps` threads, each thread computing `vector`
// adjacent pixels on `rows` rows, the rows unrolled. Works on a Func or on a
// specialisation (Stage). The thread loops are named "xt" and "yt", the
// unrolled rows "yr", for compute_at by name.
template <typename Schedulable>
void thread_blocks(Schedulable &&s, const Halide::Var &x, const Halide::Var &y, const Halide::Var &c, int vector,
                   int rows, int warps, Across across = Across::vectorized) {
    using namespace Halide;
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, xt{"xt"}, yt{"yt"}, xv{"xv"}, yr{"yr"};
    s.tile(x, y, xo, yo, xi, yi, 32 * vector, warps * rows, TailStrategy::GuardWithIf)
        .split(xi, xt, xv, vector, TailStrategy::GuardWithIf)
        .split(yi, yt, yr, rows, TailStrategy::GuardWithIf)
        .reorder(xv, yr, xt, yt, c, xo, yo);
    if (across == Across::vectorized) s.vectorize(xv);
    else s.unroll(xv);
    s.unroll(yr).gpu_blocks(xo, yo, c).gpu_threads(xt, yt);
}

}  // namespace filterlab::schedules

namespace filterlab::schedules {

// Computes `f` once per GPU thread, at the thread loop `thread` of `consumer`,
// as a width x height block in registers: storage bounded to constants and
// both loops unrolled, so every index is a constant. This makes a thread's
// reuse explicit. Left inlined, a stage is recomputed, and its loads
// repeated, for every output that uses it: the generated code does not share
// them between a thread's unrolled outputs (gaussian's inlined 4x8 block made
// 25 byte loads per output: reports/gaussian/bench_h100.md).
inline void in_registers(Halide::Func f, const Halide::Var &x, const Halide::Var &y, const Halide::Func &consumer,
                         const Halide::Var &thread, int width, int height) {
    using namespace Halide;
    f.compute_at(consumer, thread)
        .store_in(MemoryType::Register)
        .bound_extent(x, width)
        .bound_extent(y, height)
        .unroll(x)
        .unroll(y);
}

}  // namespace filterlab::schedules
