#include "filter_generator.h"
#include "layout.h"
#include "maxpool.h"
#include "schedule_registry.h"

namespace {

class MaxpoolGenerator : public filterlab::FilterGenerator<MaxpoolGenerator>, public filterlab::WritesWords {
public:
    Input<Buffer<uint8_t, 3>> input{"input"};
    Output<Buffer<void, 3>> output{"output"};  // uint8, or uint32 words (configure)

    void generate() {
        using namespace filterlab;
        const ImageViews views = image_views("maxpool", input, output, 2);
        schedules::build<maxpool::Default>(schedule, point,
                                           maxpool::Inputs{input, views.out.pixels, output_view, views.out.words},
                                           get_target(), using_autoscheduler());
        require_views(views, input, output);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(MaxpoolGenerator, maxpool)
