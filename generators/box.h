// box (mean) filter, FILTERS.md: out = (sum of the (2r+1)^2 window + n/2) / n,
// clamp border. The algorithms only; schedules/box/ holds the schedules, each
// naming the algorithm it schedules.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "Halide.h"
#include "arithmetic.h"
#include "word_view.h"

namespace filterlab::box_pipeline {

// Running sums restart every kStripRows rows and every kChunk columns: the
// warm-up of each strip (2r+1 rows) and chunk (2r+1 columns) is their cost.
constexpr int kStripRows = 16;
constexpr int kChunk = 16;

// lane_running_sums' layout (box_lanes.h), the schedule's choice: a lane's
// words, a strip's rows; the halo lanes a side and the lanes that make
// outputs follow from the words.
struct LaneLayout {
    int rows = 8, words = 4;
    int halo = 0, out_lanes = 32;
};

struct Pipeline {
    Halide::Var x{"x"}, y{"y"}, c{"c"};
    Halide::Expr radius, width, height;
    Halide::Func clamped{"clamped"};      // input with the clamp border rule
    Halide::Func output;                  // the generator's output
    // direct: each output sums its window, 2(2r+1) adds: the cost grows with r.
    Halide::Func row_sum{"row_sum"};        // horizontal sum of 2r+1 samples (fits 16 bits)
    Halide::Func window_sum{"window_sum"};  // vertical sum of 2r+1 row sums
    // running_sums: each sum is the previous one plus the sample entering the
    // window minus the one leaving it: 4 adds per output whatever r.
    Halide::Var k{"k"}, strip{"strip"}, chunk{"chunk"};
    Halide::RVar down, across;   // the recurrences' steps (down a strip, across a chunk)
    Halide::Func column_sums{"column_sums"};  // (x, k, strip): rows strip*16+k-r .. +r, 16 bits
    Halide::Func window_sums{"window_sums"};  // (k, chunk, y): columns chunk*16+k-r .. +r of column_sums
    // running_sums on a word view (READS("words")): the column sums of two
    // pixels in one 32-bit word, one add for both.
    Halide::Var wx{"wx"}, odd{"odd"};
    Halide::Func words{"words"};                    // the input's words, clamped to the image's
    Halide::Func packed_sums{"packed_sums"};  // (wx, odd, k, strip): pixels 4wx+odd and 4wx+odd+2
    // lane_running_sums (box_lanes.h), in a warp's coordinates.
    LaneLayout lanes;
    Halide::Var v{"v"}, half{"half"}, lane{"lane"}, band{"band"}, i{"i"}, run{"run"};
    Halide::RVar lane_window, lane_across;  // the first window of a run, and the slide along it
    Halide::Func image{"image"};            // the generator's input words, unclamped
    Halide::Func lane_columns{"lane_columns"};  // (v, half, lane, band, k, strip, c): packed column sums
    Halide::Func lane_sums{"lane_sums"};        // (i, run, y, c): the window sum at pixel i of run `run`
};

// Separable: row sums first, so a line buffer of 2r+1 row sums can slide down
// the image (see cpu_sliding).
inline void define_direct(Pipeline &p) {
    using namespace Halide;
    const Var &x = p.x, &y = p.y, &c = p.c;
    RDom i(-p.radius, 2 * p.radius + 1, "i");
    p.row_sum(x, y, c) = sum(cast<uint16_t>(p.clamped(x + i, y, c)));
    RDom j(-p.radius, 2 * p.radius + 1, "j");
    p.window_sum(x, y, c) = sum(cast<uint32_t>(p.row_sum(x, y + j, c)));
}

// The running sum down a strip of f(x, row, ...) into sums(x, k, strip, ...):
// the first sum of a strip is summed whole, each next one adds the entering
// row and subtracts the leaving one (the sums wrap on the subtraction and come
// back exact: the true sum fits).
template <typename Sample>
void define_strip_recurrence(Pipeline &p, Halide::Func sums, const std::vector<Halide::Var> &x, Halide::Type t,
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

// Vertical then horizontal running sums, as recurrences: the first sum of a
// strip (chunk) is summed whole, each next one adds the entering sample and
// subtracts the leaving one. 16-bit column sums wrap on the subtraction and
// come back exact (the true sum, at most 31 * 255, fits). On a word view the
// column sums are packed two to a word (even and odd pixels of each word): a
// borrow from the high lane wraps the 32-bit word, and the result is still
// exact because both lanes' true values fit 16 bits.
inline void define_running_sums(Pipeline &p, word_view::InputView view) {
    using namespace Halide;
    const Var &x = p.x, &y = p.y, &c = p.c, &k = p.k, &chunk = p.chunk;
    const Expr &r = p.radius;
    std::function<Expr(Expr)> column;  // the column sum of pixel column xx at row y, 32 bits
    if (view == word_view::InputView::words) {
        define_strip_recurrence(p, p.packed_sums, {p.wx, p.odd}, UInt(32), [&](Expr yy) {
            return word_view::pixel_pair(p.words(p.wx, yy, c), p.odd);
        });
        column = [&](Expr xx) {  // clamped here: the words past the image feed no output
            Expr xc = clamp(likely(xx), 0, p.width - 1);
            return word_view::unpacked(p.packed_sums, xc, {y % kStripRows, y / kStripRows, c});
        };
    } else {
        define_strip_recurrence(p, p.column_sums, {x}, UInt(16),
                                [&](Expr yy) { return cast<uint16_t>(p.clamped(x, yy, c)); });
        column = [&](Expr xx) { return cast<uint32_t>(p.column_sums(xx, y % kStripRows, y / kStripRows, c)); };
    }

    RDom i(-r, 2 * r + 1, "i"), across(1, kChunk - 1, "across");
    p.across = across;
    Expr left = chunk * kChunk;
    p.window_sums(k, chunk, y, c) = undef<uint32_t>();
    p.window_sums(0, chunk, y, c) = cast<uint32_t>(0);
    p.window_sums(0, chunk, y, c) += column(left + i);
    p.window_sums(across, chunk, y, c) =
        p.window_sums(across - 1, chunk, y, c) + column(left + across + r) - column(left + across - r - 1);
    p.window_sum(x, y, c) = p.window_sums(x % kChunk, x / kChunk, y, c);
}

// The output from the window sums, as FILTERS.md rounds. `integer`: as an
// integer division, for schedules that specialise on the radius (a constant
// divisor is a multiply-high); else in float, which needs no constant.
inline void define_output(Pipeline &p, bool integer = false) {
    using namespace Halide;
    Expr n = (2 * p.radius + 1) * (2 * p.radius + 1);
    Expr sum = p.window_sum(p.x, p.y, p.c);
    p.output(p.x, p.y, p.c) =
        cast<uint8_t>(integer ? (sum + cast<uint32_t>(n / 2)) / cast<uint32_t>(n) : arithmetic::divide_round_half_up(sum, n));
}

// `algorithm` is the one the schedule names (schedule_registry.h); `input`
// is the image as `view` says (word_view.h), `width` in pixels.
inline void define(Pipeline &p, const std::string &algorithm, word_view::InputView view, const Halide::Func &input,
                   const Halide::Expr &width, const Halide::Expr &height, const Halide::Expr &radius,
                   Halide::Func output) {
    using namespace Halide;
    const Var &x = p.x, &y = p.y, &c = p.c;
    p.radius = radius;
    p.width = width;
    p.height = height;
    p.output = output;
    Expr yc = clamp(y, 0, height - 1);
    if (view == word_view::InputView::words) {
        p.words(p.wx, y, c) = input(clamp(likely(p.wx), 0, word_view::last_word(width)), yc, c);
        p.clamped(x, y, c) = word_view::pixel(p.words, clamp(x, 0, width - 1), y, c);
    } else {
        p.clamped(x, y, c) = input(clamp(x, 0, width - 1), yc, c);
    }
    if (algorithm == "direct") {
        define_direct(p);
    } else if (algorithm == "running_sums") {
        define_running_sums(p, view);
    } else if (algorithm == "lane_running_sums") {
        if (view != word_view::InputView::words) throw std::invalid_argument("box: lane_running_sums reads words");
        p.image = input;
        return;  // the rest: define_lane_sums (box_lanes.h), called by the schedule with its layout
    } else {
        throw std::invalid_argument("box: no algorithm '" + algorithm + "'");
    }
    define_output(p);
}

}  // namespace filterlab::box_pipeline
