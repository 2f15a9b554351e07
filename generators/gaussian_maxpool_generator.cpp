#include "gaussian_maxpool.h"
#include "filter_generator.h"
#include "layout.h"
#include "schedule_registry.h"

namespace {

class GaussianMaxpoolGenerator : public filterlab::FilterGenerator<GaussianMaxpoolGenerator>,
                                 public filterlab::ReadsWords,
                                 public filterlab::WritesWords {
public:
    Input<Buffer<void, 3>> input{"input"};  // uint8, or uint32 words (configure)
    // The contract's Gaussian weights for the caller's sigma, as for gaussian.
    // The fixed-point weights of sigma (w0 + 2 w1 + 2 w2 = 256); the defaults are sigma = 1's.
    Input<int32_t> w0{"w0", 102, 0, 256}, w1{"w1", 63, 0, 128}, w2{"w2", 14, 0, 128};
    Output<Buffer<void, 3>> output{"output"};  // uint8, or uint32 words (configure)
    // On words only, the image's width in pixels, an input after w2: neither
    // the words (whole 16-byte groups) nor the pooled output (half, rounded
    // down) can tell it, and an odd width's last column feeds the last output.
    Input<int32_t> *words_width = nullptr;

    void configure() {
        FilterGenerator::configure();
        if (input_view == filterlab::word_view::InputView::words) words_width = add_input<int32_t>("width");
    }

    void generate() {
        using namespace filterlab;
        const ImageViews views = image_views("gaussian_maxpool", input, output, 2,
                                             words_width ? Halide::Expr(*words_width) : input.dim(0).extent());
        const gaussian_maxpool::Inputs inputs{input,      views.width, input.dim(1).extent(), w0, w1, w2, views.out.pixels,
                                              input_view, output_view, views.out.words};
        schedules::build<gaussian_maxpool::Default>(schedule, point, inputs, get_target(), using_autoscheduler());
        add_requirement(gaussian::contract_weights(w0, w1, w2),
                        "gaussian_maxpool: the weights must be non-negative and sum to 256");
        require_views(views, input, output);
        // The contract's defaults and the bench's width, for the autoschedulers.
        w0.set_estimate(102);
        w1.set_estimate(63);
        w2.set_estimate(14);
        if (words_width) words_width->set_estimate(layout::kEstimateSide);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(GaussianMaxpoolGenerator, gaussian_maxpool)
