#include "box.h"
#include "layout.h"
#include "schedule_registry.h"

namespace {

class BoxGenerator : public Halide::Generator<BoxGenerator> {
public:
    GeneratorParam<std::string> schedule{"schedule", ""};  // "<backend>_<name>"; empty for an autoscheduler
    GeneratorParam<std::string> point{"point", ""};        // a point of its space ("a:1+b:2"); empty: the default

    Input<Buffer<uint8_t, 3>> input{"input"};
    // Default and range as in FILTERS.md, so the library's _metadata() tells them.
    Input<int32_t> radius{"radius", 1, 1, 15};
    Output<Buffer<uint8_t, 3>> output{"output"};

    void generate() {
        using namespace filterlab;
        const std::string algorithm = schedules::algorithm_of<box_pipeline::Pipeline>(schedule, "direct");
        box_pipeline::define(pipeline, algorithm, input, input.dim(0).extent(), input.dim(1).extent(), radius,
                             output);
        // The contract's range; the pipeline refuses anything else at run time.
        add_requirement(radius >= 1 && radius <= 15, "box: radius must be in 1..15, got ", radius);
        layout::constrain(input, output, get_target());
        layout::same_size(input, output);
        // What the autoschedulers plan for: the bench's image and the contract's defaults.
        layout::estimate(input, layout::kEstimateSide, layout::kEstimateSide);
        layout::estimate(output, layout::kEstimateSide, layout::kEstimateSide);
        radius.set_estimate(1);
        schedules::apply(schedule, point, pipeline, get_target(), using_autoscheduler());
    }

private:
    filterlab::box_pipeline::Pipeline pipeline;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(BoxGenerator, box)
