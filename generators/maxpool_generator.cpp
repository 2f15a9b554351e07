#include "layout.h"
#include "maxpool.h"
#include "schedule_registry.h"

namespace {

class MaxpoolGenerator : public Halide::Generator<MaxpoolGenerator> {
public:
    GeneratorParam<std::string> schedule{"schedule", ""};

    Input<Buffer<uint8_t, 3>> input{"input"};
    Output<Buffer<uint8_t, 3>> output{"output"};

    void generate() {
        using namespace filterlab;
        maxpool_pipeline::define(pipeline, input, output);
        layout::constrain(input, output, get_target());
        layout::half_size(input, output);
        schedules::apply(schedule, pipeline, get_target());
    }

private:
    filterlab::maxpool_pipeline::Pipeline pipeline;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(MaxpoolGenerator, maxpool)
