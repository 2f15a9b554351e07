// gaussian, FILTERS.md: 5x5 blur in exact fixed point,
//   out = (sum_i sum_j w_i w_j I(x+j, y+i) + 32768) >> 16,
// with integer weights w_-2..w_2 (symmetric, summing to 256) computed from
// sigma on the host as the contract says, and passed in. Written separably:
// the sum is exact in integers, so this is the contract's function bit for
// bit. A pass over bytes is at most 256 * 255 = 65280 and fits 16 bits (and
// so does a pair of samples, 510, before its weight). Four algorithms, the
// same sum in another order (schedules/gaussian/ holds the schedules, each
// naming its own):
//   rows_first     the horizontal pass on bytes (16 bits), then the vertical
//                  one on its sums (32 bits);
//   columns_first  the vertical pass first: a thread's strip of a row then
//                  takes one wide load per row, and the pass needs 16 bits a
//                  pixel where rows first needs 32 for its second pass;
//   columns_first_dot  the same, four of its horizontal taps written as a
//                  dot product (define_dot_row), for dp2a.
//   columns_first_u16  the same, its horizontal pass in 16 bits on the high
//                  and low bytes of the vertical sums (define_split_row).
#pragma once

#include <stdexcept>
#include <string>

#include "Halide.h"
#include "word_view.h"

namespace filterlab::gaussian_pipeline {

struct Pipeline {
    Halide::Var x{"x"}, y{"y"}, c{"c"};
    Halide::Func clamped{"clamped"};
    Halide::Func row{"row"};        // horizontal 5-tap pass (rows_first: of bytes, u16; else of `column`, u32;
                                    // columns_first_u16: u16, (2-D sum + 2^15) >> 8)
    Halide::Func column{"column"};  // vertical 5-tap pass (rows_first: of `row`, u32; else of bytes, u16)
    bool columns_first = false;     // the algorithm: the 2-D sum is `row` if so (but _u16's), else `column`
    Halide::Func output;
    // On a word view (READS("words"), word_view.h): the input's words, and
    // columns first, the vertical pass of two pixels in one 32-bit word.
    Halide::Var wx{"wx"}, odd{"odd"};
    Halide::Func words{"words"};              // (wx, y): clamped to the image's words and rows
    Halide::Func packed_column{"packed_column"};  // (wx, odd, y): pixels 4wx+odd, 4wx+odd+2 in 16-bit lanes
    // columns_first_dot: the horizontal pass as a reduction over the side taps.
    Halide::Var tap{"tap"};
    Halide::RVar side;
    Halide::Func side_weight{"side_weight"};  // (tap): w2, w1, 0, w1 as bytes (taps x-2 .. x+1)
    // columns_first_u16: the vertical sums' high and low bytes.
    Halide::Func column_high{"column_high"}, column_low{"column_low"};
};

// The vertical pass on packed words: each 16-bit lane is at most
// 255 (w0 + 2 w1 + 2 w2) = 65280, and every product and partial sum is below
// it, so no carry crosses lanes and one 32-bit multiply-add serves two pixels.
inline void define_packed_columns(Pipeline &p, const Halide::Expr &w0, const Halide::Expr &w1, const Halide::Expr &w2) {
    using namespace Halide;
    const Var &y = p.y, &c = p.c, &wx = p.wx, &odd = p.odd;
    auto pixels = [&](int dy) { return word_view::pixel_pair(p.words(wx, y + dy, c), odd); };
    p.packed_column(wx, odd, y, c) = cast<uint32_t>(w0) * pixels(0) + cast<uint32_t>(w1) * (pixels(-1) + pixels(1)) +
                                     cast<uint32_t>(w2) * (pixels(-2) + pixels(2));
}

// What the contract's weights always are: non-negative, summing to 256 (the
// generators require it of the caller's).
inline Halide::Expr contract_weights(const Halide::Expr &w0, const Halide::Expr &w1, const Halide::Expr &w2) {
    return w0 >= 0 && w1 >= 0 && w2 >= 0 && w0 + 2 * w1 + 2 * w2 == 256;
}

// columns_first_dot's horizontal pass: taps -2..+1 as one widening-multiply
// reduction of 16-bit sums by 8-bit weights (w2, w1, 0, w1: a dense run of 4,
// which Halide's PTX backend emits as dp2a once the reduction is vectorised;
// w0 reaches 256 as sigma -> 0, so the centre tap stays apart, with tap +2).
inline void define_dot_row(Pipeline &p, const Halide::Expr &w0, const Halide::Expr &w1, const Halide::Expr &w2) {
    using namespace Halide;
    const Var &x = p.x, &y = p.y, &c = p.c;
    RDom taps(0, 4, "taps");  // x - 2 .. x + 1
    p.side = taps;
    p.side_weight(p.tap) = cast<uint8_t>(select(p.tap == 0, w2, p.tap == 2, 0, w1));
    auto column = [&](Expr xx) { return cast<uint32_t>(p.column(xx, y, c)); };
    p.row(x, y, c) = cast<uint32_t>(w0) * column(x) + cast<uint32_t>(w2) * column(x + 2);
    p.row(x, y, c) += widening_mul(p.column(x - 2 + taps, y, c), cast<uint16_t>(p.side_weight(taps)));
}

// columns_first_u16's horizontal pass, 16 bits throughout (on a CPU, twice the
// lanes of 32-bit sums and no 32-bit multiplies). A vertical sum is
// v = 256 h + l (its high and low bytes); with A and B the 5-tap sums of the
// h and of the l (each at most 256 * 255), the 2-D sum is 256 A + B, and the
// contract's (256 A + B + 2^15) >> 16 equals (A + (B >> 8) + 128) >> 8
// (floor(floor(s / 256) / 256) = floor(s / 65536)). The sum in the brackets
// is floor((2-D sum + 2^15) / 256) <= 65408: it fits 16 bits, and so does
// every partial sum of it. `row` holds it; the output shifts it by 8.
template <typename Taps>
void define_split_row(Pipeline &p, Taps taps) {
    using namespace Halide;
    const Var &x = p.x, &y = p.y, &c = p.c;
    p.column_high(x, y, c) = p.column(x, y, c) >> 8;
    p.column_low(x, y, c) = p.column(x, y, c) & 255;
    const Type u16 = UInt(16);
    p.row(x, y, c) = taps(p.column_high, 1, 0, u16) + (taps(p.column_low, 1, 0, u16) >> 8) + cast<uint16_t>(128);
}

// `algorithm` is the one the schedule names (schedule_registry.h); `input`
// is the image as `view` says (word_view.h), `width` in pixels.
inline void define(Pipeline &p, const std::string &algorithm, const Halide::Func &input, const Halide::Expr &width,
                   const Halide::Expr &height, const Halide::Expr &w0, const Halide::Expr &w1, const Halide::Expr &w2,
                   Halide::Func output, word_view::InputView view = word_view::InputView::bytes) {
    using namespace Halide;
    const Var &x = p.x, &y = p.y, &c = p.c;
    p.columns_first =
        algorithm == "columns_first" || algorithm == "columns_first_dot" || algorithm == "columns_first_u16";
    const bool words = view == word_view::InputView::words;
    if (words) {
        p.words(p.wx, y, c) = input(clamp(likely(p.wx), 0, word_view::last_word(width)), clamp(likely(y), 0, height - 1), c);
        p.clamped(x, y, c) = word_view::pixel(p.words, clamp(likely(x), 0, width - 1), y, c);
    } else if (p.columns_first) {
        // `likely`, as BoundaryConditions::repeat_edge writes it: a kernel
        // with no barrier is split into an interior part without clamps and
        // a border part (HALIDE_GPU.md, "Why the current schedules read bytes").
        p.clamped(x, y, c) = input(clamp(likely(x), 0, width - 1), clamp(likely(y), 0, height - 1), c);
    } else {
        p.clamped(x, y, c) = input(clamp(x, 0, width - 1), clamp(y, 0, height - 1), c);
    }
    // The weights are symmetric: each pass pairs the samples that share one
    // (LLVM found this pairing in the five-product form too).
    const Type u16 = UInt(16), u32 = UInt(32);
    // f(x + k dx, y + k dy) weighted w_|k| for k = -2..2, summed in type t.
    auto taps = [&](const Func &f, int dx, int dy, Type t) {
        auto sample = [&](int k) { return cast(t, f(x + k * dx, y + k * dy, c)); };
        return cast(t, w0) * sample(0) + cast(t, w1) * (sample(-1) + sample(1)) +
               cast(t, w2) * (sample(-2) + sample(2));
    };
    if (algorithm == "rows_first") {
        p.row(x, y, c) = taps(p.clamped, 1, 0, u16);
        p.column(x, y, c) = taps(p.row, 0, 1, u32);
    } else if (algorithm == "columns_first_dot") {
        p.column(x, y, c) = taps(p.clamped, 0, 1, u16);
        define_dot_row(p, w0, w1, w2);
    } else if (algorithm == "columns_first_u16") {
        p.column(x, y, c) = taps(p.clamped, 0, 1, u16);
        define_split_row(p, taps);
    } else if (p.columns_first && words) {
        define_packed_columns(p, w0, w1, w2);
        Expr xc = clamp(likely(x), 0, width - 1);  // past the image's last pixel: its column
        p.column(x, y, c) = cast<uint16_t>(word_view::unpacked(p.packed_column, xc, {y, c}));
        p.row(x, y, c) = taps(p.column, 1, 0, u32);
    } else if (p.columns_first) {
        p.column(x, y, c) = taps(p.clamped, 0, 1, u16);
        p.row(x, y, c) = taps(p.column, 1, 0, u32);
    } else {
        throw std::invalid_argument("gaussian: no algorithm '" + algorithm + "'");
    }
    p.output = output;
    // (sum + 2^15) >> 16, the contract's rounding, taken as a rounding
    // halving of sum >> 15 (at most 511): 16-bit lanes round with one
    // averaging instruction, where 32-bit ones take several.
    Func sum = p.columns_first ? p.row : p.column;  // the second pass: the 2-D sum
    if (algorithm == "columns_first_u16") {
        p.output(x, y, c) = cast<uint8_t>(p.row(x, y, c) >> 8);  // row: (2-D sum + 2^15) >> 8
    } else {
        p.output(x, y, c) = cast<uint8_t>(rounding_shift_right(cast<uint16_t>(sum(x, y, c) >> 15), 1));
    }
}

}  // namespace filterlab::gaussian_pipeline
