// What every filter's generator takes from the build beside its algorithm's
// own settings: which registered schedule to apply at which point of its
// space (schedule_registry.h), and the image shape or class the library is
// compiled for (word_view.h: fix_shape). A generator derives from it:
//
//     class BoxGenerator : public filterlab::FilterGenerator<BoxGenerator> { ... };
//
// It also sets up the image's views (word_view.h) in one place, around the
// algorithm's construction:
//
//     const auto views = image_views("box", input, output, {input_view, OutputView::bytes, 1});
//     ... build the algorithm on views.width and views.out ...
//     require_views(views, input, output);  // the buffers' constraints, the shape, the estimates
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

#include "Halide.h"
#include "layout.h"
#include "word_view.h"

namespace filterlab {

// The views a generator was configured with: its input's (none where it always
// reads bytes), its output's, and how many image pixels an output pixel spans
// across and down (1, or 2 under 2x2 pooling).
struct ViewChoice {
    std::optional<word_view::InputView> input;
    word_view::OutputView output;
    int scale;
};

// What the algorithm is built on: the image's width in pixels and the Funcs
// of its output (word_view.h: output_funcs), with the choice they came from.
struct ImageViews {
    const char *filter;
    ViewChoice choice;
    Halide::Expr width;
    word_view::OutputFuncs out;
    bool words_out() const { return choice.output == word_view::OutputView::words; }
    word_view::InputView input() const { return choice.input.value_or(word_view::InputView::bytes); }
};

template <typename T>
class FilterGenerator : public Halide::Generator<T> {
public:
    // "<backend>_<name>"; empty for an autoscheduler.
    Halide::GeneratorParam<std::string> schedule{"schedule", ""};
    // A point of its space ("a:1+b:2"); empty: the default.
    Halide::GeneratorParam<std::string> point{"point", ""};
    // "WxH" or "aligned": the shape or class it takes (FILTERLAB_SHAPES); empty: any.
    Halide::GeneratorParam<std::string> shape{"shape", ""};
    // With shape: where to say if Halide took it.
    Halide::GeneratorParam<std::string> shape_report{"shape_report", ""};

protected:
    // Before the algorithm is built: its width and output Funcs. The width is
    // the input's on bytes, the output's on a words input (the output has the
    // image's size), or `width` where neither tells it (a pooled words input).
    template <typename Input, typename Output>
    ImageViews image_views(const char *filter, Input &input, Output &output, ViewChoice choice,
                           Halide::Expr width = Halide::Expr()) {
        const bool words_in = choice.input == word_view::InputView::words;
        if (choice.output == word_view::OutputView::words && words_in)
            throw std::invalid_argument(std::string(filter) + ": a words output is written from a bytes input");
        if (!width.defined())
            width = choice.output == word_view::OutputView::words
                        ? input.dim(0).extent()
                        : word_view::image_width(input, output, choice.input.value_or(word_view::InputView::bytes));
        return {filter, choice, width, word_view::output_funcs(output, choice.output)};
    }

    // After the algorithm and the filter's own requirements: the views'
    // constraints on the buffers (a requirement where the binding must ensure
    // them), the library's shape or class (fix_shape), and what the
    // autoschedulers plan the images for (the bench's).
    template <typename Input, typename Output>
    void require_views(const ImageViews &views, Input &input, Output &output) {
        using namespace word_view;
        const std::string filter = views.filter;
        const int scale = views.choice.scale;
        const Halide::Target target = this->get_target();
        if (views.words_out()) {
            this->add_requirement(constrain_words_output(input, output, target, scale),
                                  (filter + ": a words output's width must be a multiple of 4").c_str());
        } else if (!views.choice.input) {
            constrain_images(input, output, InputView::bytes, target, views.width, scale);  // bytes: nothing to require
        } else {
            const std::string what = scale == 1 ? ": the words are not the output's row in whole 16-byte groups"
                                                : ": on words, the input must be 4 * ceil(width / 16) words a row and "
                                                  "the output width / 2 wide";
            this->add_requirement(constrain_images(input, output, views.input(), target, views.width, scale),
                                  (filter + what).c_str());
        }
        fix_shape(shape, shape_report, input, output, views.input(), views.choice.output, scale, target);
        layout::estimate(input, layout::kEstimateSide, layout::kEstimateSide);
        layout::estimate(output, layout::kEstimateSide / scale / (views.words_out() ? 4 : 1),
                         layout::kEstimateSide / scale);
    }
};

}  // namespace filterlab
