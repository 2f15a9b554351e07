#include "filter_generator.h"
#include "layout.h"
#include "maxpool.h"
#include "schedule_registry.h"

namespace {

class MaxpoolGenerator : public filterlab::FilterGenerator<MaxpoolGenerator> {
public:
    // How it writes the output (a WRITES("words") schedule's CUDA twin): 8-bit samples or 32-bit words.
    GeneratorParam<filterlab::word_view::OutputView> output_view{"output_view", filterlab::word_view::OutputView::bytes,
                                                                 filterlab::word_view::kOutputViews};

    Input<Buffer<uint8_t, 3>> input{"input"};
    Output<Buffer<void, 3>> output{"output"};  // uint8, or uint32 words (configure)

    void configure() { output.set_type(filterlab::word_view::element_type(output_view)); }

    void generate() {
        using namespace filterlab;
        const bool words_out = output_view == word_view::OutputView::words;
        const word_view::OutputFuncs out = word_view::output_funcs(output, output_view);
        schedules::build<maxpool::Default>(schedule, point, maxpool::Inputs{input, out.pixels, output_view, out.words},
                                           get_target(), using_autoscheduler());
        if (words_out) {
            add_requirement(word_view::constrain_words_output(input, output, get_target(), 2),
                            "maxpool: a words output's width must be a multiple of 4");
        } else {
            layout::constrain(input, output, get_target());
            layout::half_size(input, output);
        }
        word_view::fix_shape(shape, shape_report, input, output, word_view::InputView::bytes, output_view, 2, get_target());
        // What the autoschedulers plan for: the bench's image and the contract's defaults.
        layout::estimate(input, layout::kEstimateSide, layout::kEstimateSide);
        layout::estimate(output, layout::kEstimateSide / (words_out ? 8 : 2), layout::kEstimateSide / 2);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(MaxpoolGenerator, maxpool)
