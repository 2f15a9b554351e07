#include "box.h"
#include "contract_ranges.h"
#include "filter_generator.h"
#include "layout.h"
#include "schedule_registry.h"

namespace {

class BoxGenerator : public filterlab::FilterGenerator<BoxGenerator>, public filterlab::ReadsWords {
public:
    Input<Buffer<void, 3>> input{"input"};  // uint8, or uint32 words (configure)
    // Default and range as in FILTERS.md, so the library's _metadata() tells them.
    Input<int32_t> radius{"radius", 1, filterlab::kBoxMinRadius, filterlab::kBoxMaxRadius};
    Output<Buffer<uint8_t, 3>> output{"output"};

    void generate() {
        using namespace filterlab;
        const ImageViews views = image_views("box", input, output, 1);
        const box::Inputs inputs{input, views.width, input.dim(1).extent(), radius, views.out.pixels, input_view};
        schedules::build<box::Default>(schedule, point, inputs, get_target(), using_autoscheduler());
        // The contract's range; the pipeline refuses anything else at run time.
        const std::string range = std::to_string(kBoxMinRadius) + ".." + std::to_string(kBoxMaxRadius);
        add_requirement(radius >= kBoxMinRadius && radius <= kBoxMaxRadius, ("box: radius must be in " + range + ", got ").c_str(),
                        radius);
        require_views(views, input, output);
        radius.set_estimate(1);  // the contract's default, for the autoschedulers
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(BoxGenerator, box)
