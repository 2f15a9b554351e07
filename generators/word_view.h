// The 8-bit image read as 32-bit words (a schedule's READS("words"): the
// build sets the generator's input_view to words). Halide's PTX backend loads
// vectors of 8-bit samples 8 bytes at a time at most and splits a misaligned
// tap into bytes; a row read as words is loaded 16 bytes at a time, and the
// bytes are taken out in registers (../shared/HALIDE_GPU.md, "Word views").
// The binding (runtime/languages/halide_variant.h, InputView) wraps the same rows
// as whole 16-byte groups, 4 * ceil(width / 16) words each, pixel 4w + k in
// byte k of word w: a stage clamped by whole groups (clamp_to_groups) loads
// an aligned group of 4 words as one vector, though only words up to
// last_word feed an output. The view reads up to 15 bytes past a row's last
// pixel, inside the row's pitch (the API asks for rows padded to 16 bytes).
// Under READS the output stays bytes (WRITES("words"): OutputView, below),
// so the width in pixels is the output's, or, where
// the output is smaller (pooled), a scalar input of its own.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "Halide.h"
#include "image_shape.h"
#include "layout.h"

namespace filterlab::word_view {

enum class InputView { bytes, words };

inline const std::map<std::string, InputView> kInputViews = {{"bytes", InputView::bytes},
                                                             {"words", InputView::words}};

inline Halide::Type element_type(InputView view) { return view == InputView::words ? Halide::UInt(32) : Halide::UInt(8); }

// Bytes 0 and 2 of a word, as two 16-bit lanes of a 32-bit one (the even
// pixels), and bytes 1 and 3 (the odd ones): sums of up to 257 samples stay
// within their lane, so one 32-bit add makes two 16-bit sums.
inline Halide::Expr even_pixels(const Halide::Expr &word) { return word & 0x00FF00FF; }
inline Halide::Expr odd_pixels(const Halide::Expr &word) { return (word >> 8) & 0x00FF00FF; }

// The even (odd == 0) or odd pixels of a word, as two 16-bit lanes.
inline Halide::Expr pixel_pair(const Halide::Expr &word, const Halide::Expr &odd) {
    return Halide::select(odd == 0, even_pixels(word), odd_pixels(word));
}

// Lane `high` (0 or 1) of two 16-bit lanes.
inline Halide::Expr lane(const Halide::Expr &packed, const Halide::Expr &high) {
    return Halide::select(high == 0, packed & 0xFFFF, packed >> 16);
}

// Pixel xc (clamped to the row already) of row y, taken out of its word.
inline Halide::Expr pixel(const Halide::Func &words, const Halide::Expr &xc, const Halide::Expr &y,
                          const Halide::Expr &c) {
    return Halide::cast<uint8_t>(words(xc / 4, y, c) >> (8 * (xc % 4)));
}

// Pixel xc's 16-bit value in a Func of pixel pairs indexed (wx, odd, rest...).
inline Halide::Expr unpacked(const Halide::Func &pairs, const Halide::Expr &xc, std::vector<Halide::Expr> rest) {
    rest.insert(rest.begin(), {xc / 4, xc % 2});
    return lane(pairs(rest), (xc / 2) % 2);
}

// Input and output constraints of a words pipeline: the words from (0, 0, 0),
// rows 16-byte aligned on every target (4 words, one 16-byte load); the
// output has the image's channels and its rows divided by `scale` (the image
// pixels under an output pixel across and down: 1, or 2 under 2x2 pooling),
// its rows 16-byte aligned too. Its width is width_fits'.
template <typename Input, typename Output>
void constrain(Input &words, Output &output, int scale) {
    using namespace Halide;
    for (int d = 0; d < 3; d++) words.dim(d).set_min(0);
    layout::align_rows(words, 4);
    output.dim(0).set_min(0);
    output.dim(1).set_bounds(0, scale == 1 ? words.dim(1).extent() : words.dim(1).extent() / scale);
    output.dim(2).set_bounds(0, words.dim(2).extent());
    layout::align_rows(output, 16);
}

// How a pipeline writes its 8-bit output (its schedule's WRITES; the build
// sets the generator's output_view to words for a CUDA library's twin): as
// bytes, or as 32-bit words over the same rows, pixel 4w + k in byte k of word
// w, for outputs whose width is a multiple of 4 (the binding takes the bytes
// library for the others). Halide stores a vector of 8-bit samples 8 bytes at
// a time at most; a vector of 4 words is one 16-byte store.
enum class OutputView { bytes, words };

inline const std::map<std::string, OutputView> kOutputViews = {{"bytes", OutputView::bytes},
                                                               {"words", OutputView::words}};

inline Halide::Type element_type(OutputView view) { return view == OutputView::words ? Halide::UInt(32) : Halide::UInt(8); }

// The Funcs a generator hands its algorithm for its output: on bytes the
// output itself, in which the algorithm defines its pixels; on words a Func
// of pixels and the output, the words the algorithm packs them into.
struct OutputFuncs {
    Halide::Func pixels, words;
};
template <typename Output>
OutputFuncs output_funcs(Output &output, OutputView view) {
    if (view == OutputView::words) return {Halide::Func("pixels"), Halide::Func(output)};
    return {Halide::Func(output), Halide::Func()};
}

// words(wx, y, c): the 4 pixels of `pixels` from 4 wx packed, the first in the low byte.
inline void define_words(Halide::Func words, const Halide::Func &pixels, const Halide::Var &wx, const Halide::Var &y,
                         const Halide::Var &c) {
    using namespace Halide;
    Expr packed = cast<uint32_t>(pixels(4 * wx, y, c));
    for (int k = 1; k < 4; k++) packed = packed | (cast<uint32_t>(pixels(4 * wx + k, y, c)) << (8 * k));
    words(wx, y, c) = packed;
}

// The words stage of an algorithm that can write its output as words (a
// WRITES("words") schedule's twin): on a words output, `words` is the
// generator's output and word wx packs the algorithm's output pixels from 4 wx.
struct WordsOutput {
    Halide::Var wx{"wx"};
    Halide::Func words;
    bool writes_words = false;

    WordsOutput(const Halide::Func &words, OutputView view)
        : words(words), writes_words(view == OutputView::words) {}
    // Packs `pixels` into `words` on a words output; nothing on bytes.
    void pack(const Halide::Func &pixels, const Halide::Var &y, const Halide::Var &c) {
        if (writes_words) define_words(words, pixels, wx, y, c);
    }
};

// The constraints of a bytes input and a words output (the output the image's
// size, or half of it under 2x2 pooling: `scale`): rows of both 16-byte
// aligned. Returns the requirement the generator adds: the output's width in
// pixels, the image's divided by `scale`, a multiple of 4 (the binding ensures it).
template <typename Input, typename Output>
Halide::Expr constrain_words_output(Input &input, Output &words, const Halide::Target &target, int scale) {
    using namespace Halide;
    layout::constrain_input(input, target);
    layout::align_rows(words, 4);
    const Expr out_width = input.dim(0).extent() / scale;
    words.dim(0).set_bounds(0, out_width / 4);
    words.dim(1).set_bounds(0, input.dim(1).extent() / scale);
    words.dim(2).set_bounds(0, input.dim(2).extent());
    return out_width % 4 == 0;
}

// The last word that holds a pixel of a row `width` pixels wide.
inline Halide::Expr last_word(const Halide::Expr &width) { return (width + 3) / 4 - 1; }

// Word wx of the view, clamped by whole 16-byte groups: an aligned vector of
// 4 words stays one aligned load (a clamp of each word would gather them).
inline Halide::Expr clamp_to_groups(const Halide::Expr &wx, const Halide::Expr &width) {
    return Halide::clamp(wx / 4, 0, (width + 15) / 16 - 1) * 4 + wx % 4;
}

// What a words pipeline requires of an image `width` pixels wide and of its
// output, `scale` times narrower (the binding ensures it).
template <typename Input, typename Output>
Halide::Expr width_fits(Input &words, Output &output, const Halide::Expr &width, int scale) {
    return words.dim(0).extent() == (width + 15) / 16 * 4 && output.dim(0).extent() == width / scale;
}

// The image's width in pixels where the output has the image's size: the
// input's on bytes, the output's on words.
template <typename Input, typename Output>
Halide::Expr image_width(Input &input, Output &output, InputView view) {
    return view == InputView::words ? output.dim(0).extent() : input.dim(0).extent();
}

// The constraints of a pipeline's input and output on either view (bytes:
// layout.h's), the output the image's size or (scale 2) half of it, the
// image `width` pixels wide. Returns what the generator must add as a
// requirement (true for bytes): a generator's add_requirement is its own.
template <typename Input, typename Output>
Halide::Expr constrain_images(Input &input, Output &output, InputView view, const Halide::Target &target,
                              const Halide::Expr &width, int scale) {
    if (scale != 1 && scale != 2) throw std::invalid_argument("word_view: an output the image's size or half of it");
    if (view == InputView::bytes) {
        layout::constrain(input, output, target);
        if (scale == 1) {
            layout::same_size(input, output);
        } else {
            layout::half_size(input, output);
        }
        return Halide::Expr(true);
    }
    constrain(input, output, scale);
    return width_fits(input, output, width, scale);
}

// The same for an output of the image's size, whose width on words is the image's.
template <typename Input, typename Output>
Halide::Expr constrain_images(Input &input, Output &output, InputView view, const Halide::Target &target) {
    return constrain_images(input, output, view, target, image_width(input, output, view), 1);
}

// Rows and planes of `buffer` whole multiples of kAlignedPitch bytes apart
// (on), or of 16 bytes as layout::align_rows left them (off); `bytes` its
// elements' size.
template <typename Buffer>
void pitch_for_aligned_class(Buffer &buffer, int bytes, bool on) {
    const int unit = (on ? kAlignedPitch : 16) / bytes;
    for (int d = 1; d < 3; d++) buffer.dim(d).set_stride((buffer.dim(d).stride() / unit) * unit);
}

// The constraints of a library compiled for one image shape (every extent
// fixed) or for the aligned class (widths whole multiples of kAlignedWidth
// pixels, strides of kAlignedPitch bytes), put on (true) or taken back.
template <typename Input, typename Output>
auto shape_constraints(ImageShape s, Input &input, Output &output, bool words_in, bool words_out, int scale) {
    return [=, &input, &output](bool on) {
        using Halide::Expr;
        if (s == kAlignedClass) {
            const int in_unit = words_in ? kAlignedWidth / 4 : kAlignedWidth;
            const int out_unit = kAlignedWidth / scale / (words_out ? 4 : 1);
            input.dim(0).set_extent(on ? (input.dim(0).extent() / in_unit) * in_unit : Expr());
            if (words_in) output.dim(0).set_extent(on ? (output.dim(0).extent() / out_unit) * out_unit : Expr());
            pitch_for_aligned_class(input, words_in ? 4 : 1, on);
            pitch_for_aligned_class(output, words_out ? 4 : 1, on);
            return;
        }
        input.dim(0).set_extent(on ? Expr(words_in ? (s.width + 15) / 16 * 4 : s.width) : Expr());
        input.dim(1).set_extent(on ? Expr(s.height) : Expr());
        if (words_in) output.dim(0).set_extent(on ? Expr(s.width / scale) : Expr());
    };
}

// A library compiled for one image shape or the aligned class (the generator
// parameter `shape`, image_shape.h's spelling or "aligned"; nothing when it
// is empty): for a shape the input's extents fixed, and a words input's
// output's width (its one extent no constraint ties to the input's), so
// Halide substitutes them everywhere; for the class the widths and strides
// constrained to its multiples. Called after the views' own constraints.
// Where Halide cannot lower the pipeline with them (a bound_storage it no
// longer proves, for one), they are taken back and the library stays
// generic; `report` (the build's <library>_shape.h) says which, read by the
// registration (runtime/languages/compiled_pipeline.h: ShapeTwin).
template <typename Input, typename Output>
void fix_shape(const std::string &shape, const std::string &report, Input &input, Output &output, InputView in_view,
               OutputView out_view, int scale, const Halide::Target &target) {
    if (shape.empty()) return;
    const std::optional<ImageShape> fixed = read_build_shape(shape);
    if (!fixed) throw std::invalid_argument("shape '" + shape + "' is not WIDTHxHEIGHT nor " + kAlignedSpelling);
    const ImageShape s = *fixed;
    const bool words_out = out_view == OutputView::words;
    const auto fix = shape_constraints(s, input, output, in_view == InputView::words, words_out, scale);
    // A words output needs a width in whole words: at this shape the binding
    // writes bytes and never calls this twin, which stays generic (and is no
    // refusal: the bytes twin serves the shape).
    std::string refused;
    if (!words_out || s == kAlignedClass || (s.width / scale) % 4 == 0) {
        fix(true);
        refused = layout::lowering_error(Halide::Func(output), target);
        if (!refused.empty()) fix(false);
    }
    layout::write_shape_report(report, refused);
}

}  // namespace filterlab::word_view
