// The hand-written OpenCL box filter (third backend): box_wide_rows.cl, our
// CUDA kernel's running sums ported. Gold: reference::box.
#include "box_wide_rows_cl.h"
#include "contract_ranges.h"
#include "opencl_planes.h"
#include "registry.h"

namespace filterlab::handwritten {
namespace {

// box_wide_rows.cl's strip: 16 pixels each side of a work-item's 16.
static_assert(kBoxMaxRadius <= 16, "box_wide_rows.cl's row strip is 48 bytes");

void run(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    const int radius = static_cast<int>(params.at("radius"));
    const int rows = radius <= 2 ? 16 : 32;  // ROWS of box_wide_rows.cl
    for (int c = 0; c < in.channels; c++) {
        opencl_planes::plane_arguments(
            opencl::kernel(box_wide_rows_cl, opencl_planes::defines({{"R", radius}}), "box_wide_rows"), in, out, c)
            .launch((in.width + 15) / 16, (in.height + rows - 1) / rows, 64, 1);
    }
}

const VariantRegistration registration{
    porting({"box", "cl_wide_rows", Backend::opencl, Kind::handwritten, {}, run}, "hw_wide_rows")};

}  // namespace
}  // namespace filterlab::handwritten
