// maxpool, FILTERS.md: the maximum of each 2x2 block, stride 2; the output is
// floor(W/2) x floor(H/2) (the harness refuses W or H below 2). No border.
// The algorithm only; schedules/maxpool/ holds the schedules.
#pragma once

#include "Halide.h"

namespace filterlab::maxpool_pipeline {

struct Pipeline {
    Halide::Var x{"x"}, y{"y"}, c{"c"};
    Halide::Func output;
};

inline void define(Pipeline &p, const Halide::Func &input, Halide::Func output) {
    using namespace Halide;
    const Var &x = p.x, &y = p.y, &c = p.c;
    p.output = output;
    p.output(x, y, c) = max(max(input(2 * x, 2 * y, c), input(2 * x + 1, 2 * y, c)),
                            max(input(2 * x, 2 * y + 1, c), input(2 * x + 1, 2 * y + 1, c)));
}

}  // namespace filterlab::maxpool_pipeline
