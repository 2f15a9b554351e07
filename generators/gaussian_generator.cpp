#include "gaussian.h"
#include "layout.h"
#include "schedule_registry.h"

namespace {

class GaussianGenerator : public Halide::Generator<GaussianGenerator> {
public:
    GeneratorParam<std::string> schedule{"schedule", ""};  // "<backend>_<name>"; empty for an autoscheduler
    GeneratorParam<std::string> point{"point", ""};        // a point of its space ("a:1+b:2"); empty: the default
    // How the schedule reads the image (its READS; word_view.h): 8-bit samples or 32-bit words.
    GeneratorParam<filterlab::word_view::InputView> input_view{"input_view", filterlab::word_view::InputView::bytes,
                                                               filterlab::word_view::kInputViews};

    Input<Buffer<void, 3>> input{"input"};  // uint8, or uint32 words (configure)
    // The contract's weights for the caller's sigma: w0 the centre, w1 and w2 the sides.
    // The fixed-point weights of sigma (w0 + 2 w1 + 2 w2 = 256); the defaults are sigma = 1's.
    Input<int32_t> w0{"w0", 102, 0, 256}, w1{"w1", 63, 0, 128}, w2{"w2", 14, 0, 128};
    Output<Buffer<uint8_t, 3>> output{"output"};

    void configure() { input.set_type(filterlab::word_view::element_type(input_view)); }

    void generate() {
        using namespace filterlab;
        const gaussian::Inputs inputs{input, word_view::image_width(input, output, input_view), input.dim(1).extent(),
                                      w0, w1, w2, output, input_view};
        schedules::build<gaussian::Default>(schedule, point, inputs, get_target(), using_autoscheduler());
        add_requirement(gaussian::contract_weights(w0, w1, w2),
                        "gaussian: the weights must be non-negative and sum to 256");
        add_requirement(word_view::constrain_images(input, output, input_view, get_target()),
                        "gaussian: the words are not the output's row in whole 16-byte groups");
        // What the autoschedulers plan for: the bench's image and the contract's defaults.
        layout::estimate(input, layout::kEstimateSide, layout::kEstimateSide);
        layout::estimate(output, layout::kEstimateSide, layout::kEstimateSide);
        w0.set_estimate(102);
        w1.set_estimate(63);
        w2.set_estimate(14);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(GaussianGenerator, gaussian)
