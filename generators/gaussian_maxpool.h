// gaussian_maxpool: the 5x5 fixed-point Gaussian of FILTERS.md followed by
// its 2x2 max pooling, out = maxpool(gaussian(I, sigma)), written by
// composing the two filters' own algorithms: one algorithm per blur
// algorithm (Pooled<gaussian::RowsFirst> is RowsFirst here). The blur is a
// stage of its own (`blurred`), so a schedule decides whether it is computed
// per tile inside the pooling or whole, at root. schedules/gaussian_maxpool/
// holds the schedules.
#pragma once

#include "gaussian.h"
#include "maxpool.h"

namespace filterlab::gaussian_maxpool {

// What the generator hands every algorithm: the blur's inputs, the output
// (the pooled image) to define; on a words output (out_view), the pooling
// packs its pixels into `words` (maxpool's WordsOutput).
using Inputs = gaussian::Inputs;

template <typename BlurAlgorithm>
struct Pooled {
    using Inputs = gaussian_maxpool::Inputs;
    Halide::Func blurred{"blurred"};  // the blur's output
    BlurAlgorithm blur;
    maxpool::Direct pool;
    // One set of Vars for the schedules: the pooling's are the output's.
    Halide::Var x, y, c;
    Halide::Func output;
    // The words output's, the pooling's (WRITES("words")).
    Halide::Var wx;
    Halide::Func words;
    bool writes_words;

    explicit Pooled(const Inputs &in)
        : blur(blur_inputs(in, blurred)), pool(maxpool::Inputs{blurred, in.output, in.out_view, in.words}),
          x(pool.x), y(pool.y), c(pool.c), output(in.output), wx(pool.wx), words(pool.words),
          writes_words(pool.writes_words) {}

private:
    static Inputs blur_inputs(Inputs in, const Halide::Func &blurred) {
        in.output = blurred;
        in.out_view = word_view::OutputView::bytes;  // the blur is an inner stage
        return in;
    }
};

using RowsFirst = Pooled<gaussian::RowsFirst>;
using ColumnsFirst = Pooled<gaussian::ColumnsFirst>;
using ColumnsFirstDot = Pooled<gaussian::ColumnsFirstDot>;

// The algorithm an autoscheduler is given (the generator's first).
using Default = RowsFirst;

}  // namespace filterlab::gaussian_maxpool
