#include "box.h"
#include "schedule_registry.h"

namespace {

class BoxGenerator : public Halide::Generator<BoxGenerator> {
public:
    GeneratorParam<std::string> schedule{"schedule", ""};

    Input<Buffer<uint8_t, 3>> input{"input"};
    Input<int32_t> radius{"radius"};
    Output<Buffer<uint8_t, 3>> output{"output"};

    void generate() {
        using namespace filterlab;
        box_pipeline::define(pipeline, input, input.dim(0).extent(), input.dim(1).extent(), radius,
                             output);
        // The contract's range; the pipeline refuses anything else at run time.
        add_requirement(radius >= 1 && radius <= 15, "box: radius must be in 1..15, got ", radius);
        // Output and input have the same size; the harness guarantees it.
        for (int d = 0; d < 3; d++) input.dim(d).set_min(0);
        output.dim(0).set_bounds(0, input.dim(0).extent());
        output.dim(1).set_bounds(0, input.dim(1).extent());
        output.dim(2).set_bounds(0, input.dim(2).extent());
        if (get_target().has_feature(Target::CUDA)) {
            // Device rows start on 16-byte boundaries (the harness pitches them
            // to 64 bytes), which lets the schedules use wide loads and stores.
            input.set_host_alignment(16);
            output.set_host_alignment(16);
            for (int d = 1; d < 3; d++) {
                input.dim(d).set_stride((input.dim(d).stride() / 16) * 16);
                output.dim(d).set_stride((output.dim(d).stride() / 16) * 16);
            }
        }
        schedules::apply(schedule, pipeline, get_target());
    }

private:
    filterlab::box_pipeline::Pipeline pipeline;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(BoxGenerator, box)
