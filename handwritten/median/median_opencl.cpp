// The hand-written OpenCL medians (third backend): the seed paper's padded
// bubble sort (median_paper.cl) and our 3x3 strips (median_packed.cl). Gold:
// reference::median.
#include "median_packed_cl.h"
#include "median_paper_cl.h"
#include "opencl_planes.h"
#include "registry.h"

namespace filterlab::handwritten {
namespace {

using opencl_planes::defines;
using opencl_planes::plane_arguments;

void run_paper_bubble(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    const int k = static_cast<int>(params.at("size")), pad = k / 2;
    const std::string options = defines({{"K", k}, {"PAD", pad}});
    const std::size_t padded_width = in.width + 2 * pad, padded_height = in.height + 2 * pad;
    opencl::Scratch padded(padded_width * padded_height);
    for (int c = 0; c < in.channels; c++) {
        // One padded plane at a time (the queue is in order); its pitch is the kernels' own.
        const PlanarView padded_view{static_cast<uint8_t *>(padded.memory()), in.width, in.height, 1, 0, 0};
        plane_arguments(opencl::kernel(median_paper_cl, options, "pad_clamp"), in, padded_view, c)
            .launch(padded_width, padded_height, 16, 16);
        plane_arguments(opencl::kernel(median_paper_cl, options, "median_bubble"), padded_view, out, c)
            .launch(in.width, in.height, 16, 16);
    }
}

void run_strips(const PlanarView &in, const PlanarView &out, const ParamValues &) {
    constexpr int kRows = 4;  // ROWS of median_packed.cl
    for (int c = 0; c < in.channels; c++) {
        plane_arguments(opencl::kernel(median_packed_cl, "", "median3x3_strips"), in, out, c)
            .launch((in.width + 15) / 16, (in.height + kRows - 1) / kRows, 32, 4);
    }
}

const VariantRegistration paper{
    porting({"median", "cl_bubble", Backend::opencl, Kind::handwritten, {}, run_paper_bubble}, "hw_bubble")};
const VariantRegistration strips{
    porting({"median", "cl_packed", Backend::opencl, Kind::handwritten, parse_supports("size=3"), run_strips},
            "hw_packed")};

}  // namespace
}  // namespace filterlab::handwritten
