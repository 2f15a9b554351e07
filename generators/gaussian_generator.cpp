#include "gaussian.h"
#include "filter_generator.h"
#include "layout.h"
#include "schedule_registry.h"

namespace {

class GaussianGenerator : public filterlab::FilterGenerator<GaussianGenerator>,
                          public filterlab::ReadsWords,
                          public filterlab::WritesWords {
public:
    Input<Buffer<void, 3>> input{"input"};  // uint8, or uint32 words (configure)
    // The contract's weights for the caller's sigma: w0 the centre, w1 and w2 the sides.
    // The fixed-point weights of sigma (w0 + 2 w1 + 2 w2 = 256); the defaults are sigma = 1's.
    Input<int32_t> w0{"w0", 102, 0, 256}, w1{"w1", 63, 0, 128}, w2{"w2", 14, 0, 128};
    Output<Buffer<void, 3>> output{"output"};  // uint8, or uint32 words (configure)

    void generate() {
        using namespace filterlab;
        const ImageViews views = image_views("gaussian", input, output, 1);
        const gaussian::Inputs inputs{input,      views.width, input.dim(1).extent(), w0, w1, w2, views.out.pixels,
                                      input_view, output_view, views.out.words};
        schedules::build<gaussian::Default>(schedule, point, inputs, get_target(), using_autoscheduler());
        add_requirement(gaussian::contract_weights(w0, w1, w2),
                        "gaussian: the weights must be non-negative and sum to 256");
        require_views(views, input, output);
        // The contract's defaults, for the autoschedulers.
        w0.set_estimate(102);
        w1.set_estimate(63);
        w2.set_estimate(14);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(GaussianGenerator, gaussian)
