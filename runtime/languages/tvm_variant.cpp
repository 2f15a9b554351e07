#include "tvm_variant.h"

#include <cstdint>
#include <limits>
#include <utility>

#include "cuda_support.h"
#include "reference.h"

namespace filterlab {
namespace tvm_scalars {

void none(const ParamValues &, filterlab_tvm_call &) {}

void gaussian_weights(const ParamValues &params, filterlab_tvm_call &call) {
    const auto w = reference::gaussian_weights(params.at("sigma"));
    for (int i = 0; i < 3; i++) call.ints[i] = w[2 + i];  // symmetric: w[2 - i] == w[2 + i]
}

void nlmeans_h(const ParamValues &params, filterlab_tvm_call &call) { call.floats[0] = static_cast<float>(params.at("h")); }

}  // namespace tvm_scalars

namespace {

// TVM indexes in 32 bits: a stride or a whole image past 2^31 bytes is refused.
int32_t narrow(std::ptrdiff_t value, const char *what) {
    if (value < 0 || value > std::numeric_limits<int32_t>::max())
        throw Error(std::string("TVM variants index in 32 bits: the ") + what + " (" + std::to_string(value) +
                    " bytes) is too large");
    return static_cast<int32_t>(value);
}

filterlab_tvm_call call_of(const PlanarView &in, const PlanarView &out) {
    filterlab_tvm_call call{};
    call.input = in.data;
    call.output = out.data;
    call.channels = in.channels;
    call.height = in.height;
    call.width = in.width;
    call.in_plane = narrow(in.plane_stride, "input's plane stride");
    call.in_row = narrow(in.row_stride, "input's row stride");
    call.out_plane = narrow(out.plane_stride, "output's plane stride");
    call.out_row = narrow(out.row_stride, "output's row stride");
    narrow(in.plane_stride * in.channels, "input");
    narrow(out.plane_stride * out.channels, "output");
    call.stream = static_cast<cudaStream_t>(cuda::current_stream());
    return call;
}

}  // namespace

Variant tvm_variant(const std::string &filter, const std::string &name, const std::string &supports,
                    std::vector<CompiledPipeline<filterlab_tvm_launcher>> libraries, TvmScalars scalars) {
    Variant v;
    v.filter = filter;
    v.name = name;
    v.backend = Backend::cuda;
    v.kind = Kind::tvm;
    // A schedule compiled for every value of a parameter (the median's tile at
    // sizes 3, 5 and 7) restricts nothing: the registration names only restrictions.
    for (const ParamSupport &s : parse_supports(supports))
        if (!restates_contract(s, filter_info(filter))) v.supports.push_back(s);
    v.run = [libraries = std::move(libraries), scalars, id = filter + "/" + name](
                const PlanarView &in, const PlanarView &out, const ParamValues &params) {
        filterlab_tvm_call call = call_of(in, out);
        call.paths_barred = static_cast<int32_t>(ShapePath::exact) - static_cast<int32_t>(path_ceiling);
        scalars(params, call);
        const int status = select_pipeline(libraries, params)(&call);
        if (status != 0) {
            const std::string message = id + ": " + cudaGetErrorString(static_cast<cudaError_t>(status));
            if (cuda::gpu_state_lost()) throw MachineError(message + cuda::gpu_state_lost_note());
            throw Error(message);
        }
    };
    return v;
}

}  // namespace filterlab
