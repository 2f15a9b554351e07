// maxpool, FILTERS.md: the maximum of each 2x2 block, stride 2; the output is
// floor(W/2) x floor(H/2) (the harness refuses W or H below 2). No border.
// One algorithm; schedules/maxpool/ holds the schedules.
#pragma once

#include "Halide.h"
#include "word_view.h"

namespace filterlab::maxpool {

// What the generator hands the algorithm: the image and the output to define;
// on a words output (out_view), `output` is the pixels and `words` the
// generator's output, which packs them.
struct Inputs {
    Halide::Func input;
    Halide::Func output;
    word_view::OutputView out_view = word_view::OutputView::bytes;
    Halide::Func words;
};

struct Direct : word_view::WordsOutput {
    using Inputs = maxpool::Inputs;
    Halide::Var x{"x"}, y{"y"}, c{"c"};
    Halide::Func output;

    explicit Direct(const Inputs &in) : WordsOutput(in.words, in.out_view), output(in.output) {
        using namespace Halide;
        const Func &input = in.input;
        output(x, y, c) = max(max(input(2 * x, 2 * y, c), input(2 * x + 1, 2 * y, c)),
                              max(input(2 * x, 2 * y + 1, c), input(2 * x + 1, 2 * y + 1, c)));
        pack(output, y, c);
    }
};

// The algorithm an autoscheduler is given (the only one).
using Default = Direct;

}  // namespace filterlab::maxpool
