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
        const std::string algorithm = schedules::algorithm_of<median_pipeline::Pipeline>(schedule, "direct");
        // The networks' samples: 16-bit on GPUs (min/max on 8-bit vectors
        // unpack each lane there, ../shared/HALIDE_GPU.md), 8-bit on CPUs
        // (twice the lanes per vector). The median is the same either way.
        const Halide::Type sample_type = get_target().has_gpu_feature() ? Halide::UInt(16) : Halide::UInt(8);
        median_pipeline::define(pipeline, algorithm, sample_type, input, input.dim(0).extent(),
                                input.dim(1).extent(), size, output);
        schedules::apply(schedule, point, pipeline, get_target(), using_autoscheduler());
        if (!pipeline.output.defined())
            throw std::invalid_argument("median: schedule '" + std::string(schedule) + "' of the separable algorithm "
                                        "defines no tile (median_pipeline::define_separable)");
        layout::constrain(input, output, get_target());
        layout::same_size(input, output);
        // What the autoschedulers plan for: the bench's image and the contract's defaults.
        layout::estimate(input, layout::kEstimateSide, layout::kEstimateSide);
        layout::estimate(output, layout::kEstimateSide, layout::kEstimateSide);
    }

private:
    filterlab::median_pipeline::Pipeline pipeline;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(MedianGenerator, median)
