#include "layout.h"
#include "nlmeans.h"
#include "offset_planes.h"
#include "schedule_registry.h"
#include "word_view.h"

namespace {

class NlmeansGenerator : public Halide::Generator<NlmeansGenerator> {
public:
    GeneratorParam<std::string> schedule{"schedule", ""};  // "<backend>_<name>"; empty for an autoscheduler
    GeneratorParam<std::string> point{"point", ""};        // a point of its space ("a:1+b:2"); empty: the default
    GeneratorParam<std::string> shape{"shape", ""};        // "WxH" or "aligned": the shape or class it takes (FILTERLAB_SHAPES); empty: any
    GeneratorParam<std::string> shape_report{"shape_report", ""};  // with shape: where to say if Halide took it

    Input<Buffer<uint8_t, 3>> input{"input"};
    // Defaults and ranges as in FILTERS.md, so the library's _metadata() tells them.
    Input<int32_t> patch{"patch", 3, 0, 10};     // p: the patch is (2p+1)^2
    Input<int32_t> search{"search", 10, 1, 30};  // s: the search window is (2s+1)^2
    Input<float> h{"h", 10.0f, 1e-3f, 1000.0f};
    Output<Buffer<uint8_t, 3>> output{"output"};

    void generate() {
        using namespace filterlab;
        const nlmeans::Inputs inputs{input, input.dim(0).extent(), input.dim(1).extent(), input.dim(2).extent(),
                                     patch, search, h, output};
        schedules::build<nlmeans::Default>(schedule, point, inputs, get_target(), using_autoscheduler());
        // The contract's ranges (h from 1e-3, as the suite's parameter domain).
        add_requirement(patch >= 0 && patch <= 10, "nlmeans: patch must be in 0..10, got ", patch);
        add_requirement(search >= 1 && search <= 30, "nlmeans: search must be in 1..30, got ", search);
        add_requirement(h >= 1e-3f && h <= 1000.0f, "nlmeans: h must be in [1e-3, 1000], got ", h);
        // A frozen autoschedule for the GPU stores every offset's planes at root (schedules/nlmeans/auto/).
        if (std::string(schedule).rfind("gpu_auto_", 0) == 0) {
            using Halide::cast;
            const Halide::Expr planes = nlmeans_offset_plane_elements<Halide::Expr>(
                cast<int64_t>(input.dim(0).extent()), cast<int64_t>(input.dim(1).extent()), cast<int64_t>(patch),
                cast<int64_t>(search));
            add_requirement(planes <= Halide::cast<int64_t>(Halide::Expr(static_cast<int64_t>(kHalideBufferElements))),
                            "nlmeans: this schedule stores each offset's planes at root, ", planes,
                            " elements, more than a Halide buffer indexes (2^31 - 1): a smaller image or search");
        }
        layout::constrain(input, output, get_target());
        layout::same_size(input, output);
        word_view::fix_shape(shape, shape_report, input, output, word_view::InputView::bytes, word_view::OutputView::bytes, 1, get_target());
        // What the autoschedulers plan for: the bench's image and the contract's defaults.
        layout::estimate(input, layout::kNlmeansEstimateSide, layout::kNlmeansEstimateSide);
        layout::estimate(output, layout::kNlmeansEstimateSide, layout::kNlmeansEstimateSide);
        patch.set_estimate(3);
        search.set_estimate(10);
        h.set_estimate(10.0f);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(NlmeansGenerator, nlmeans)
