#include "layout.h"
#include "maxpool.h"
#include "schedule_registry.h"

namespace {

class MaxpoolGenerator : public Halide::Generator<MaxpoolGenerator> {
public:
    GeneratorParam<std::string> schedule{"schedule", ""};  // "<backend>_<name>"; empty for an autoscheduler
    GeneratorParam<std::string> point{"point", ""};        // a point of its space ("a:1+b:2"); empty: the default

    Input<Buffer<uint8_t, 3>> input{"input"};
    Output<Buffer<uint8_t, 3>> output{"output"};

    void generate() {
        using namespace filterlab;
        schedules::build<maxpool::Default>(schedule, point, maxpool::Inputs{input, output}, get_target(),
                                           using_autoscheduler());
        layout::constrain(input, output, get_target());
        layout::half_size(input, output);
        // What the autoschedulers plan for: the bench's image and the contract's defaults.
        layout::estimate(input, layout::kEstimateSide, layout::kEstimateSide);
        layout::estimate(output, layout::kEstimateSide / 2, layout::kEstimateSide / 2);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(MaxpoolGenerator, maxpool)
