#include "layout.h"
#include "median.h"
#include "schedule_registry.h"

namespace {

class MedianGenerator : public Halide::Generator<MedianGenerator> {
public:
    GeneratorParam<std::string> schedule{"schedule", ""};  // "<backend>_<name>"; empty for an autoscheduler
    GeneratorParam<std::string> point{"point", ""};        // a point of its space ("a:1+b:2"); empty: the default
    GeneratorParam<int> size{"size", 3};  // k: one library per k (3, 5 or 7)

    Input<Buffer<uint8_t, 3>> input{"input"};
    Output<Buffer<uint8_t, 3>> output{"output"};

    void generate() {
        using namespace filterlab;
        if (size != 3 && size != 5 && size != 7) throw std::invalid_argument("median: size must be 3, 5 or 7");
        median_pipeline::define(pipeline, input, input.dim(0).extent(), input.dim(1).extent(), size, output);
        layout::constrain(input, output, get_target());
        layout::same_size(input, output);
        // What the autoschedulers plan for: the bench's image and the contract's defaults.
        layout::estimate(input, layout::kEstimateSide, layout::kEstimateSide);
        layout::estimate(output, layout::kEstimateSide, layout::kEstimateSide);
        schedules::apply(schedule, point, pipeline, get_target(), using_autoscheduler());
    }

private:
    filterlab::median_pipeline::Pipeline pipeline;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(MedianGenerator, median)
