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
