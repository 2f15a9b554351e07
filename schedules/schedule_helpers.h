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

// The shape of thread_blocks' GPU blocks: 32 x `warps` threads, each thread
// computing `vector` adjacent pixels on `rows` rows.
struct BlockShape {
    int vector = 1;
    int rows = 1;
    int warps = 1;
    Across across = Across::vectorized;
};

// The loops thread_blocks creates, for the stages computed inside them:
// blocks (xo, yo), threads (xt, yt), a thread's pixels across (xv) and its
// unrolled rows (yr).
struct ThreadLoops {
    Halide::Var xo{"xo"}, yo{"yo"}, xt{"xt"}, yt{"yt"}, xv{"xv"}, yr{"yr"};
};

// GPU blocks of the given shape, the rows unrolled. Works on a Func or on a
// specialisation (Stage).
template <typename Schedulable>
ThreadLoops thread_blocks(Schedulable &&s, const Halide::Var &x, const Halide::Var &y, const Halide::Var &c,
                          const BlockShape &shape) {
    using namespace Halide;
    ThreadLoops l;
    Var xi{"xi"}, yi{"yi"};
    s.tile(x, y, l.xo, l.yo, xi, yi, 32 * shape.vector, shape.warps * shape.rows, TailStrategy::GuardWithIf)
        .split(xi, l.xt, l.xv, shape.vector, TailStrategy::GuardWithIf)
        .split(yi, l.yt, l.yr, shape.rows, TailStrategy::GuardWithIf)
        .reorder(l.xv, l.yr, l.xt, l.yt, c, l.xo, l.yo);
    if (shape.across == Across::vectorized) s.vectorize(l.xv);
    else s.unroll(l.xv);
    s.unroll(l.yr).gpu_blocks(l.xo, l.yo, c).gpu_threads(l.xt, l.yt);
    return l;
}

}  // namespace filterlab::schedules

namespace filterlab::schedules {

// Computes `f` once per GPU thread, at the thread loop `thread` of `consumer`,
// as a width x height block in registers: storage bounded to constants and
// both loops unrolled, so every index is a constant. This makes a thread's
// reuse explicit. Left inlined, a stage is recomputed, and its loads
// repeated, for every output that uses it: the generated code does not share
// them between a thread's unrolled outputs.
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
