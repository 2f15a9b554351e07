#include <algorithm>

#include "contract_ranges.h"
#include "filter_generator.h"
#include "layout.h"
#include "median.h"
#include "schedule_registry.h"

namespace {

class MedianGenerator : public filterlab::FilterGenerator<MedianGenerator>,
                        public filterlab::ReadsWords,
                        public filterlab::WritesWords {
public:
    GeneratorParam<int> size{"size", 3};  // k: one library per k (3, 5 or 7)

    Input<Buffer<void, 3>> input{"input"};    // uint8, or uint32 words (configure)
    Output<Buffer<void, 3>> output{"output"};  // uint8, or uint32 words (configure)

    void generate() {
        using namespace filterlab;
        if (std::find(kMedianSizes.begin(), kMedianSizes.end(), static_cast<int>(size)) == kMedianSizes.end())
            throw std::invalid_argument("median: size must be one of the contract's (contract_ranges.h: kMedianSizes)");
        // The networks' samples: 16-bit on GPUs (min/max on 8-bit vectors
        // unpack each lane there, ../shared/HALIDE_GPU.md), 8-bit on CPUs
        // (twice the lanes per vector). The median is the same either way.
        const Halide::Type sample_type = get_target().has_gpu_feature() ? Halide::UInt(16) : Halide::UInt(8);
        const ImageViews views = image_views("median", input, output, 1);
        const median::Inputs inputs{input,      views.width, input.dim(1).extent(), size, sample_type, views.out.pixels,
                                    input_view, output_view, views.out.words};
        schedules::build<median::Default>(schedule, point, inputs, get_target(), using_autoscheduler());
        require_views(views, input, output);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(MedianGenerator, median)
