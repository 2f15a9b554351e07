// gaussian_maxpool: the 5x5 fixed-point Gaussian of FILTERS.md followed by
// its 2x2 max pooling, out = maxpool(gaussian(I, sigma)), written by
// composing the two filters' own algorithms. The blur is a stage of its own
// (`blurred`), so a schedule decides whether it is computed per tile inside
// the pooling or whole, at root. The algorithm only; schedules/gaussian_maxpool/
// holds the schedules.
#pragma once

#include "gaussian.h"
#include "maxpool.h"

namespace filterlab::gaussian_maxpool_pipeline {

struct Pipeline {
    Halide::Var x{"x"}, y{"y"}, c{"c"};
    gaussian_pipeline::Pipeline blur;  // its output is `blurred`
    maxpool_pipeline::Pipeline pool;
    Halide::Func blurred{"blurred"};
    Halide::Func output;
};

// `algorithm`: the blur's (gaussian.h), the one the schedule names; `input`
// the image as `view` says, `width` in pixels.
inline void define(Pipeline &p, const std::string &algorithm, const Halide::Func &input, const Halide::Expr &width,
                   const Halide::Expr &height, const Halide::Expr &w0, const Halide::Expr &w1, const Halide::Expr &w2,
                   Halide::Func output, word_view::InputView view = word_view::InputView::bytes) {
    gaussian_pipeline::define(p.blur, algorithm, input, width, height, w0, w1, w2, p.blurred, view);
    maxpool_pipeline::define(p.pool, p.blurred, output);
    // One set of Vars for the schedules: the pooling's are the output's.
    p.x = p.pool.x;
    p.y = p.pool.y;
    p.c = p.pool.c;
    p.output = output;
}

}  // namespace filterlab::gaussian_maxpool_pipeline
