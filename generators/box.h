// box (mean) filter, FILTERS.md: out = (sum of the (2r+1)^2 window + n/2) / n,
// clamp border. The algorithm only; schedules/box/ holds the schedules.
#pragma once

#include "Halide.h"
#include "arithmetic.h"

namespace filterlab::box_pipeline {

struct Pipeline {
    Halide::Var x{"x"}, y{"y"}, c{"c"};
    Halide::Expr radius;
    Halide::Func clamped{"clamped"};      // input with the clamp border rule
    Halide::Func row_sum{"row_sum"};      // horizontal sum of 2r+1 samples (fits 16 bits)
    Halide::Func window_sum{"window_sum"};  // vertical sum of 2r+1 row sums
    Halide::Func output;                  // the generator's output
};

// Separable: row sums first, so a line buffer of 2r+1 row sums can slide down
// the image (see cpu_sliding).
inline void define(Pipeline &p, const Halide::Func &input, const Halide::Expr &width,
                   const Halide::Expr &height, const Halide::Expr &radius, Halide::Func output) {
    using namespace Halide;
    const Var &x = p.x, &y = p.y, &c = p.c;
    p.radius = radius;
    p.clamped(x, y, c) = input(clamp(x, 0, width - 1), clamp(y, 0, height - 1), c);

    RDom i(-radius, 2 * radius + 1, "i");
    p.row_sum(x, y, c) = sum(cast<uint16_t>(p.clamped(x + i, y, c)));

    RDom j(-radius, 2 * radius + 1, "j");
    p.window_sum(x, y, c) = sum(cast<uint32_t>(p.row_sum(x, y + j, c)));

    Expr n = (2 * radius + 1) * (2 * radius + 1);
    p.output = output;
    p.output(x, y, c) = cast<uint8_t>(arithmetic::divide_round_half_up(p.window_sum(x, y, c), n));
}

}  // namespace filterlab::box_pipeline
