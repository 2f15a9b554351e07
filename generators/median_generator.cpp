#include "layout.h"
#include "median.h"
#include "schedule_registry.h"

namespace {

class MedianGenerator : public Halide::Generator<MedianGenerator> {
public:
    GeneratorParam<std::string> schedule{"schedule", ""};  // "<backend>_<name>"; empty for an autoscheduler
    GeneratorParam<std::string> point{"point", ""};        // a point of its space ("a:1+b:2"); empty: the default
    GeneratorParam<int> size{"size", 3};  // k: one library per k (3, 5 or 7)
    // How the schedule reads the image (its READS; word_view.h): 8-bit samples or 32-bit words.
    GeneratorParam<filterlab::word_view::InputView> input_view{"input_view", filterlab::word_view::InputView::bytes,
                                                               filterlab::word_view::kInputViews};

    Input<Buffer<void, 3>> input{"input"};  // uint8, or uint32 words (configure)
    Output<Buffer<uint8_t, 3>> output{"output"};

    void configure() { input.set_type(filterlab::word_view::element_type(input_view)); }

    void generate() {
        using namespace filterlab;
        if (size != 3 && size != 5 && size != 7) throw std::invalid_argument("median: size must be 3, 5 or 7");
        // The networks' samples: 16-bit on GPUs (min/max on 8-bit vectors
        // unpack each lane there, ../shared/HALIDE_GPU.md), 8-bit on CPUs
        // (twice the lanes per vector). The median is the same either way.
        const Halide::Type sample_type = get_target().has_gpu_feature() ? Halide::UInt(16) : Halide::UInt(8);
        const median::Inputs inputs{input, word_view::image_width(input, output, input_view), input.dim(1).extent(),
                                    size, sample_type, output, input_view};
        schedules::build<median::Default>(schedule, point, inputs, get_target(), using_autoscheduler());
        add_requirement(word_view::constrain_images(input, output, input_view, get_target()),
                        "median: the words are not the output's row in whole 16-byte groups");
        // What the autoschedulers plan for: the bench's image and the contract's defaults.
        layout::estimate(input, layout::kEstimateSide, layout::kEstimateSide);
        layout::estimate(output, layout::kEstimateSide, layout::kEstimateSide);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(MedianGenerator, median)
