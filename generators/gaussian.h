// gaussian, FILTERS.md: 5x5 blur in exact fixed point,
//   out = (sum_i sum_j w_i w_j I(x+j, y+i) + 32768) >> 16,
// with integer weights w_-2..w_2 (symmetric, summing to 256) computed from
// sigma on the host as the contract says, and passed in. Written separably:
// the sum is exact in integers, so this is the contract's function bit for
// bit. A pass over bytes is at most 256 * 255 = 65280 and fits 16 bits (and
// so does a pair of samples, 510, before its weight). Four algorithms, the
// same sum in another order, each a type holding only its stages
// (schedules/gaussian/ holds the schedules, each naming the type it schedules):
//   RowsFirst        the horizontal pass on bytes (16 bits), then the vertical
//                    one on its sums (32 bits);
//   ColumnsFirst     the vertical pass first: a thread's strip of a row then
//                    takes one wide load per row, and the pass needs 16 bits a
//                    pixel where rows first needs 32 for its second pass; it
//                    may read the image as words (two pixels a multiply-add);
//   ColumnsFirstDot  the same, four of its horizontal taps written as a dot
//                    product, for dp2a;
//   ColumnsFirstU16  the same, its horizontal pass in 16 bits on the high and
//                    low bytes of the vertical sums.
#pragma once

#include <stdexcept>

#include "Halide.h"
#include "word_view.h"

namespace filterlab::gaussian {

// What the generator hands every algorithm: the image as `view` says
// (word_view.h), its width in pixels, the contract's weights (w0 the centre),
// the output to define; on a words output (out_view), `output` is the pixels
// and `words` the generator's output, which packs them.
struct Inputs {
    Halide::Func input;
    Halide::Expr width, height, w0, w1, w2;
    Halide::Func output;
    word_view::InputView view = word_view::InputView::bytes;
    word_view::OutputView out_view = word_view::OutputView::bytes;
    Halide::Func words;
};

// What the contract's weights always are: non-negative, summing to 256 (the
// generators require it of the caller's).
inline Halide::Expr contract_weights(const Halide::Expr &w0, const Halide::Expr &w1, const Halide::Expr &w2) {
    return w0 >= 0 && w1 >= 0 && w2 >= 0 && w0 + 2 * w1 + 2 * w2 == 256;
}

// The stages every Gaussian algorithm has: the image with the clamp border,
// the horizontal pass `row`, the vertical pass `column`, the output.
struct Blur : word_view::WordsOutput {
    using Inputs = gaussian::Inputs;
    Halide::Var x{"x"}, y{"y"}, c{"c"};
    Halide::Func clamped{"clamped"};
    Halide::Func row{"row"};        // horizontal 5-tap pass
    Halide::Func column{"column"};  // vertical 5-tap pass
    Halide::Func output;

protected:
    Halide::Expr w0, w1, w2;

    // The clamp border on bytes; `likely`, as BoundaryConditions::repeat_edge
    // writes it, where a kernel with no barrier is to be split into an
    // interior part without clamps and a border part (HALIDE_GPU.md, "Why the
    // current schedules read bytes"). A word view is ColumnsFirst's alone.
    Blur(const Inputs &in, bool likely_interior)
        : WordsOutput(in.words, in.out_view), w0(in.w0), w1(in.w1), w2(in.w2) {
        using namespace Halide;
        if (in.view == word_view::InputView::words && !likely_interior)
            throw std::invalid_argument("gaussian: only ColumnsFirst reads words");
        if (in.view == word_view::InputView::bytes) {
            Expr xc = likely_interior ? clamp(likely(x), 0, in.width - 1) : clamp(x, 0, in.width - 1);
            Expr yc = likely_interior ? clamp(likely(y), 0, in.height - 1) : clamp(y, 0, in.height - 1);
            clamped(x, y, c) = in.input(xc, yc, c);
        }
    }

    // f(x + k dx, y + k dy) weighted w_|k| for k = -2..2, summed in type t.
    // The weights are symmetric: each pass pairs the samples that share one
    // (LLVM found this pairing in the five-product form too).
    Halide::Expr taps(const Halide::Func &f, int dx, int dy, Halide::Type t) const {
        using namespace Halide;
        auto sample = [&](int k) { return cast(t, f(x + k * dx, y + k * dy, c)); };
        return cast(t, w0) * sample(0) + cast(t, w1) * (sample(-1) + sample(1)) + cast(t, w2) * (sample(-2) + sample(2));
    }

    // (sum + 2^15) >> 16, the contract's rounding, taken as a rounding
    // halving of sum >> 15 (at most 511): 16-bit lanes round with one
    // averaging instruction, where 32-bit ones take several.
    void define_output(Halide::Func output_of, const Halide::Func &sum) {
        using namespace Halide;
        output = output_of;
        output(x, y, c) = cast<uint8_t>(rounding_shift_right(cast<uint16_t>(sum(x, y, c) >> 15), 1));
        pack(output, y, c);
    }
};

// `row` of bytes (u16), then `column` of its sums (u32): the 2-D sum is `column`.
struct RowsFirst : Blur {
    static constexpr bool kColumnsFirst = false;

    explicit RowsFirst(const Inputs &in) : Blur(in, false) {
        using namespace Halide;
        row(x, y, c) = taps(clamped, 1, 0, UInt(16));
        column(x, y, c) = taps(row, 0, 1, UInt(32));
        define_output(in.output, column);
    }
};

// `column` of bytes (u16), then `row` of its sums (u32): the 2-D sum is `row`.
// On a word view (READS("words"), word_view.h), the vertical pass of two
// pixels in one 32-bit word (packed_column): each 16-bit lane is at most
// 255 (w0 + 2 w1 + 2 w2) = 65280, and every product and partial sum is below
// it, so no carry crosses lanes and one 32-bit multiply-add serves two pixels.
struct ColumnsFirst : Blur {
    static constexpr bool kColumnsFirst = true;
    Halide::Var odd{"odd"};                                   // wx is WordsOutput's: a word of a row
    Halide::Func input_words{"input_words"};                  // (wx, y): clamped to the image's words and rows
    Halide::Func packed_column{"packed_column"};  // (wx, odd, y): pixels 4wx+odd, 4wx+odd+2 in 16-bit lanes

    explicit ColumnsFirst(const Inputs &in) : Blur(in, true) {
        using namespace Halide;
        if (in.view == word_view::InputView::words) {
            input_words(wx, y, c) =
                in.input(clamp(likely(wx), 0, word_view::last_word(in.width)), clamp(likely(y), 0, in.height - 1), c);
            clamped(x, y, c) = word_view::pixel(input_words, clamp(likely(x), 0, in.width - 1), y, c);
            auto pixels = [&](int dy) { return word_view::pixel_pair(input_words(wx, y + dy, c), odd); };
            packed_column(wx, odd, y, c) = cast<uint32_t>(w0) * pixels(0) +
                                           cast<uint32_t>(w1) * (pixels(-1) + pixels(1)) +
                                           cast<uint32_t>(w2) * (pixels(-2) + pixels(2));
            Expr xc = clamp(likely(x), 0, in.width - 1);  // past the image's last pixel: its column
            column(x, y, c) = cast<uint16_t>(word_view::unpacked(packed_column, xc, {y, c}));
        } else {
            column(x, y, c) = taps(clamped, 0, 1, UInt(16));
        }
        row(x, y, c) = taps(column, 1, 0, UInt(32));
        define_output(in.output, row);
    }
};

// ColumnsFirst with the horizontal pass as a reduction over the side taps:
// taps -2..+1 as one widening-multiply reduction of 16-bit sums by 8-bit
// weights (w2, w1, 0, w1: a dense run of 4, which Halide's PTX backend emits
// as dp2a once the reduction is vectorised; w0 reaches 256 as sigma -> 0, so
// the centre tap stays apart, with tap +2).
struct ColumnsFirstDot : Blur {
    static constexpr bool kColumnsFirst = true;
    Halide::Var tap{"tap"};
    Halide::RVar side;
    Halide::Func side_weight{"side_weight"};  // (tap): w2, w1, 0, w1 as bytes (taps x-2 .. x+1)

    explicit ColumnsFirstDot(const Inputs &in) : Blur(in, true) {
        using namespace Halide;
        column(x, y, c) = taps(clamped, 0, 1, UInt(16));
        RDom side_taps(0, 4, "taps");  // x - 2 .. x + 1
        side = side_taps;
        side_weight(tap) = cast<uint8_t>(select(tap == 0, w2, tap == 2, 0, w1));
        auto sum_of = [&](Expr xx) { return cast<uint32_t>(column(xx, y, c)); };
        row(x, y, c) = cast<uint32_t>(w0) * sum_of(x) + cast<uint32_t>(w2) * sum_of(x + 2);
        row(x, y, c) += widening_mul(column(x - 2 + side_taps, y, c), cast<uint16_t>(side_weight(side_taps)));
        define_output(in.output, row);
    }
};

// ColumnsFirst with its horizontal pass 16 bits throughout (on a CPU, twice
// the lanes of 32-bit sums and no 32-bit multiplies). A vertical sum is
// v = 256 h + l (its high and low bytes); with A and B the 5-tap sums of the
// h and of the l (each at most 256 * 255), the 2-D sum is 256 A + B, and the
// contract's (256 A + B + 2^15) >> 16 equals (A + (B >> 8) + 128) >> 8
// (floor(floor(s / 256) / 256) = floor(s / 65536)). The sum in the brackets
// is floor((2-D sum + 2^15) / 256) <= 65408: it fits 16 bits, and so does
// every partial sum of it. `row` holds it; the output shifts it by 8.
struct ColumnsFirstU16 : Blur {
    static constexpr bool kColumnsFirst = true;
    Halide::Func column_high{"column_high"}, column_low{"column_low"};

    explicit ColumnsFirstU16(const Inputs &in) : Blur(in, true) {
        using namespace Halide;
        const Type u16 = UInt(16);
        column(x, y, c) = taps(clamped, 0, 1, u16);
        column_high(x, y, c) = column(x, y, c) >> 8;
        column_low(x, y, c) = column(x, y, c) & 255;
        row(x, y, c) = taps(column_high, 1, 0, u16) + (taps(column_low, 1, 0, u16) >> 8) + cast<uint16_t>(128);
        output = in.output;
        output(x, y, c) = cast<uint8_t>(row(x, y, c) >> 8);  // row: (2-D sum + 2^15) >> 8
    }
};

// The algorithm an autoscheduler is given (the generator's first).
using Default = RowsFirst;

}  // namespace filterlab::gaussian
