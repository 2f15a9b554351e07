#include "gaussian_maxpool.h"
#include "layout.h"
#include "schedule_registry.h"

namespace {

class GaussianMaxpoolGenerator : public Halide::Generator<GaussianMaxpoolGenerator> {
public:
    GeneratorParam<std::string> schedule{"schedule", ""};  // "<backend>_<name>"; empty for an autoscheduler
    GeneratorParam<std::string> point{"point", ""};        // a point of its space ("a:1+b:2"); empty: the default

    Input<Buffer<uint8_t, 3>> input{"input"};
    // The contract's Gaussian weights for the caller's sigma, as for gaussian.
    // The fixed-point weights of sigma (w0 + 2 w1 + 2 w2 = 256); the defaults are sigma = 1's.
    Input<int32_t> w0{"w0", 102, 0, 256}, w1{"w1", 63, 0, 128}, w2{"w2", 14, 0, 128};
    Output<Buffer<uint8_t, 3>> output{"output"};

    void generate() {
        using namespace filterlab;
        const std::string algorithm = schedules::algorithm_of<gaussian_maxpool_pipeline::Pipeline>(schedule, "rows_first");
        gaussian_maxpool_pipeline::define(pipeline, algorithm, input, input.dim(0).extent(), input.dim(1).extent(), w0, w1, w2,
                                          output);
        add_requirement(gaussian_pipeline::contract_weights(w0, w1, w2),
                        "gaussian_maxpool: the weights must be non-negative and sum to 256");
        layout::constrain(input, output, get_target());
        layout::half_size(input, output);
        // What the autoschedulers plan for: the bench's image and the contract's defaults.
        layout::estimate(input, layout::kEstimateSide, layout::kEstimateSide);
        layout::estimate(output, layout::kEstimateSide / 2, layout::kEstimateSide / 2);
        w0.set_estimate(102);
        w1.set_estimate(63);
        w2.set_estimate(14);
        schedules::apply(schedule, point, pipeline, get_target(), using_autoscheduler());
    }

private:
    filterlab::gaussian_maxpool_pipeline::Pipeline pipeline;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(GaussianMaxpoolGenerator, gaussian_maxpool)
