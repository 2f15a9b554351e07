#include "contract_ranges.h"
#include "filter_generator.h"
#include "layout.h"
#include "nlmeans.h"
#include "offset_planes.h"
#include "schedule_registry.h"
#include "word_view.h"

namespace {

class NlmeansGenerator : public filterlab::FilterGenerator<NlmeansGenerator> {
public:
    Input<Buffer<uint8_t, 3>> input{"input"};
    // Defaults and ranges as in FILTERS.md, so the library's _metadata() tells them.
    Input<int32_t> patch{"patch", 3, filterlab::kNlmeansMinPatch, filterlab::kNlmeansMaxPatch};  // p: the patch is (2p+1)^2
    Input<int32_t> search{"search", 10, filterlab::kNlmeansMinSearch,
                          filterlab::kNlmeansMaxSearch};  // s: the search window is (2s+1)^2
    Input<float> h{"h", 10.0f, static_cast<float>(filterlab::kNlmeansMinH), static_cast<float>(filterlab::kNlmeansMaxH)};
    Output<Buffer<uint8_t, 3>> output{"output"};

    void generate() {
        using namespace filterlab;
        const nlmeans::Inputs inputs{input, input.dim(0).extent(), input.dim(1).extent(), input.dim(2).extent(),
                                     patch, search, h, output};
        schedules::build<nlmeans::Default>(schedule, point, inputs, get_target(), using_autoscheduler());
        // The contract's ranges (h from 1e-3, as the suite's parameter domain).
        auto range = [](int lo, int hi) { return std::to_string(lo) + ".." + std::to_string(hi); };
        add_requirement(patch >= kNlmeansMinPatch && patch <= kNlmeansMaxPatch,
                        ("nlmeans: patch must be in " + range(kNlmeansMinPatch, kNlmeansMaxPatch) + ", got ").c_str(), patch);
        add_requirement(search >= kNlmeansMinSearch && search <= kNlmeansMaxSearch,
                        ("nlmeans: search must be in " + range(kNlmeansMinSearch, kNlmeansMaxSearch) + ", got ").c_str(),
                        search);
        // (The message spells the bounds itself: std::to_string(1e-3) would say 0.001000.)
        add_requirement(h >= static_cast<float>(kNlmeansMinH) && h <= static_cast<float>(kNlmeansMaxH),
                        "nlmeans: h must be in [1e-3, 1000], got ", h);
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
