// box (mean) filter, FILTERS.md: out = (sum of the (2r+1)^2 window + n/2) / n,
// clamp border. Three algorithms, each a type holding only its stages
// (schedules/box/ holds the schedules, each naming the type it schedules):
//   Separable    row sums of 2r+1 samples, then 2r+1 of them summed down: 2(2r+1) adds
//                an output, the cost grows with r;
//   RunningSums  each sum is the previous one plus the sample entering the
//                window minus the one leaving it: 4 adds per output whatever r;
//   LaneRunningSums        RunningSums in a warp's coordinates (box_lanes.h).
#pragma once

#include <functional>
#include <vector>

#include "Halide.h"
#include "arithmetic.h"
#include "word_view.h"

namespace filterlab::box {

// Running sums restart every kStripRows rows and every kChunk columns: the
// warm-up of each strip (2r+1 rows) and chunk (2r+1 columns) is their cost.
constexpr int kStripRows = 16;
constexpr int kChunk = 16;

// What the generator hands every algorithm: the image as `view` says
// (word_view.h), its width in pixels, the radius, the output to define.
struct Inputs {
    Halide::Func input;
    Halide::Expr width, height, radius;
    Halide::Func output;
    word_view::InputView view = word_view::InputView::bytes;
};

// The stages every box algorithm has: the image with the clamp border (on a
// word view, taken out of the clamped words), the window sum and the output.
struct Window {
    using Inputs = box::Inputs;
    Halide::Var x{"x"}, y{"y"}, c{"c"};
    Halide::Expr radius, width, height;
    Halide::Func clamped{"clamped"};
    Halide::Func window_sum{"window_sum"};
    Halide::Func output;
    Halide::Var wx{"wx"};
    Halide::Func words{"words"};  // on a word view: the input's words, clamped to the image's

    explicit Window(const Inputs &in) : radius(in.radius), width(in.width), height(in.height), output(in.output) {
        using namespace Halide;
        Expr yc = clamp(y, 0, height - 1);
        if (in.view == word_view::InputView::words) {
            words(wx, y, c) = in.input(clamp(likely(wx), 0, word_view::last_word(width)), yc, c);
            clamped(x, y, c) = word_view::pixel(words, clamp(x, 0, width - 1), y, c);
        } else {
            clamped(x, y, c) = in.input(clamp(x, 0, width - 1), yc, c);
        }
    }

protected:
    // The output from the window sums, as FILTERS.md rounds. `integer`: as an
    // integer division, for schedules that specialise on the radius (a
    // constant divisor is a multiply-high); else in float, which needs no constant.
    void define_output(bool integer = false) { define_means(output, integer); }
    // The same into `means` (a stage the output then reads).
    void define_means(Halide::Func means, bool integer = false) {
        using namespace Halide;
        Expr n = (2 * radius + 1) * (2 * radius + 1);
        Expr sum = window_sum(x, y, c);
        means(x, y, c) = cast<uint8_t>(integer ? (sum + cast<uint32_t>(n / 2)) / cast<uint32_t>(n)
                                               : arithmetic::divide_round_half_up(sum, n));
    }
};

// Row sums first, so a line buffer of 2r+1 row sums can slide down the image
// (see cpu_sliding).
struct Separable : Window {
    Halide::Func row_sum{"row_sum"};  // horizontal sum of 2r+1 samples (fits 16 bits)

    explicit Separable(const Inputs &in) : Window(in) {
        using namespace Halide;
        RDom i(-radius, 2 * radius + 1, "i");
        row_sum(x, y, c) = sum(cast<uint16_t>(clamped(x + i, y, c)));
        RDom j(-radius, 2 * radius + 1, "j");
        window_sum(x, y, c) = sum(cast<uint32_t>(row_sum(x, y + j, c)));
        define_output();
    }
};

// The running sum down a strip of `rows` rows of sample(row) into
// sums(x..., k, strip, c): the first sum of a strip is summed whole, each next
// one adds the entering row and subtracts the leaving one (the sums wrap on
// the subtraction and come back exact: the true sum fits). `p` gives the
// strip's Vars (k, strip, c), the radius, and takes the recurrence's RVar `down`.
template <typename Algorithm, typename Sample>
void define_strip_recurrence(Algorithm &p, Halide::Func sums, const std::vector<Halide::Var> &x, Halide::Type t,
                             Sample sample, int rows = kStripRows) {
    using namespace Halide;
    const Expr &r = p.radius;
    RDom j(-r, 2 * r + 1, "j"), down(1, rows - 1, "down");
    p.down = down;
    auto at = [&](Expr k) {
        std::vector<Expr> args(x.begin(), x.end());
        args.insert(args.end(), {k, p.strip, p.c});
        return args;
    };
    Expr top = p.strip * rows;
    sums(at(p.k)) = undef(t);
    sums(at(0)) = cast(t, 0);
    sums(at(0)) += sample(top + j);
    sums(at(down)) = sums(at(down - 1)) + sample(top + down + r) - sample(top + down - r - 1);
}

// Vertical then horizontal running sums, as recurrences. 16-bit column sums
// wrap on the subtraction and come back exact (the true sum, at most
// 31 * 255, fits). On a word view the column sums are packed two to a word
// (even and odd pixels of each word): a borrow from the high lane wraps the
// 32-bit word, and the result is still exact because both lanes' true values
// fit 16 bits.
struct RunningSums : Window {
    Halide::Var k{"k"}, strip{"strip"}, chunk{"chunk"};
    Halide::RVar down, across;                // the recurrences' steps (down a strip, across a chunk)
    Halide::Func column_sums{"column_sums"};  // (x, k, strip): rows strip*16+k-r .. +r, 16 bits
    Halide::Func window_sums{"window_sums"};  // (k, chunk, y): columns chunk*16+k-r .. +r of column_sums
    // On a word view: the column sums of two pixels in one 32-bit word, one add for both.
    Halide::Var odd{"odd"};
    Halide::Func packed_sums{"packed_sums"};  // (wx, odd, k, strip): pixels 4wx+odd and 4wx+odd+2
    // The rounded means, which the output copies: a schedule may compute a
    // tile of them in shared memory and copy it out a row at a time (each
    // thread's run of outputs would otherwise be stored strided across a
    // warp); left inlined, the output computes them itself.
    Halide::Func means{"means"};

    explicit RunningSums(const Inputs &in) : Window(in) {
        using namespace Halide;
        std::function<Expr(Expr)> column;  // the column sum of pixel column xx at row y, 32 bits
        if (in.view == word_view::InputView::words) {
            define_strip_recurrence(*this, packed_sums, {wx, odd}, UInt(32),
                                    [&](Expr yy) { return word_view::pixel_pair(words(wx, yy, c), odd); });
            column = [&](Expr xx) {  // clamped here: the words past the image feed no output
                Expr xc = clamp(likely(xx), 0, width - 1);
                return word_view::unpacked(packed_sums, xc, {y % kStripRows, y / kStripRows, c});
            };
        } else {
            define_strip_recurrence(*this, column_sums, {x}, UInt(16),
                                    [&](Expr yy) { return cast<uint16_t>(clamped(x, yy, c)); });
            column = [&](Expr xx) { return cast<uint32_t>(column_sums(xx, y % kStripRows, y / kStripRows, c)); };
        }
        const Expr &r = radius;
        RDom i(-r, 2 * r + 1, "i"), steps(1, kChunk - 1, "across");
        across = steps;
        Expr left = chunk * kChunk;
        window_sums(k, chunk, y, c) = undef<uint32_t>();
        window_sums(0, chunk, y, c) = cast<uint32_t>(0);
        window_sums(0, chunk, y, c) += column(left + i);
        window_sums(steps, chunk, y, c) =
            window_sums(steps - 1, chunk, y, c) + column(left + steps + r) - column(left + steps - r - 1);
        window_sum(x, y, c) = window_sums(x % kChunk, x / kChunk, y, c);
        define_means(means);
        output(x, y, c) = means(x, y, c);
    }
};

// The algorithm an autoscheduler is given (the generator's first).
using Default = Separable;

}  // namespace filterlab::box
