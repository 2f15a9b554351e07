// What every filter's generator takes from the build beside its algorithm's
// own settings: which registered schedule to apply at which point of its
// space (schedule_registry.h), and the image shape or class the library is
// compiled for (word_view.h: fix_shape). A generator derives from it:
//
//     class BoxGenerator : public filterlab::FilterGenerator<BoxGenerator> { ... };
//
// It also sets up the image's views (word_view.h) in one place. A generator
// whose schedules may read 32-bit words derives from ReadsWords too, one that
// may write them from WritesWords: each adds its generator parameter, and the
// buffers' types follow it (configure). Around the algorithm's construction:
//
//     const auto views = image_views("box", input, output, 1);  // 1: the output's scale
//     ... build the algorithm on views.width and views.out ...
//     require_views(views, input, output);  // the buffers' constraints, the shape, the estimates
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

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

// The view a generator's schedules read the image in (their READS): 8-bit samples or 32-bit words.
struct ReadsWords {
    Halide::GeneratorParam<word_view::InputView> input_view{"input_view", word_view::InputView::bytes,
                                                            word_view::kInputViews};
};

// The view its CUDA schedules' words twin writes (WRITES("words")): 8-bit samples or 32-bit words.
struct WritesWords {
    Halide::GeneratorParam<word_view::OutputView> output_view{"output_view", word_view::OutputView::bytes,
                                                              word_view::kOutputViews};
};

// Halide finds a generator's parameters among the objects inside it, whatever
// base they sit in: the mixins hold nothing else, and are not polymorphic, so
// the generator's polymorphic base stays first.
static_assert(!std::is_polymorphic_v<ReadsWords> && !std::is_polymorphic_v<WritesWords>);

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

    // The buffers' element types as the views say (Halide calls it before
    // generate(); a generator that adds inputs calls it first in its own).
    void configure() {
        T &self = static_cast<T &>(*this);
        if constexpr (std::is_base_of_v<ReadsWords, T>) self.input.set_type(word_view::element_type(self.input_view));
        if constexpr (std::is_base_of_v<WritesWords, T>)
            self.output.set_type(word_view::element_type(self.output_view));
    }

protected:
    // The views this generator was configured with, its output `scale` times smaller than its input.
    ViewChoice view_choice(int scale) const {
        const T &self = static_cast<const T &>(*this);
        ViewChoice choice{std::nullopt, word_view::OutputView::bytes, scale};
        if constexpr (std::is_base_of_v<ReadsWords, T>) choice.input = self.input_view;
        if constexpr (std::is_base_of_v<WritesWords, T>) choice.output = self.output_view;
        return choice;
    }

    // Before the algorithm is built: its width and output Funcs. The width is
    // the input's on bytes, the output's on a words input (the output has the
    // image's size), or `width` where neither tells it (a pooled words input).
    template <typename Input, typename Output>
    ImageViews image_views(const char *filter, Input &input, Output &output, int scale,
                           Halide::Expr width = Halide::Expr()) {
        const ViewChoice choice = view_choice(scale);
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
