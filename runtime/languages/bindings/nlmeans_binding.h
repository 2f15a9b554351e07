// How an nlmeans pipeline is called: nlmeans(input, patch, search, h, output).
#pragma once

#include <fmt/format.h>

#include "halide_variant.h"
#include "offset_planes.h"

namespace filterlab {

using NlmeansPipeline = int (*)(halide_buffer_t *, int32_t, int32_t, float, halide_buffer_t *);

// An autoscheduled CUDA pipeline stores every offset's planes at root
// (schedules/nlmeans/auto/): the images and windows whose planes Halide's
// 32-bit buffers cannot index are refused (its generator requires the same).
inline std::string offset_planes_fit(int width, int height, int, const ParamValues &p) {
    const long long planes = nlmeans_offset_plane_elements<long long>(width, height, static_cast<long long>(p.at("patch")),
                                                                      static_cast<long long>(p.at("search")));
    if (planes <= kHalideBufferElements) return "";
    return fmt::format("stores each offset's planes at root, {} elements at {}x{} with search={:g}, more than a "
                       "Halide buffer indexes (2^31 - 1): a smaller image or search window",
                       planes, width, height, p.at("search"));
}

inline Variant nlmeans_halide_variant(const std::string &name, Backend backend, const std::string &supports,
                                      std::vector<CompiledPipeline<NlmeansPipeline>> compiled) {
    Variant v = halide_variant(
        "nlmeans", name, backend, supports, std::move(compiled),
        [](NlmeansPipeline f, halide_buffer_t *in, halide_buffer_t *out, const ParamValues &p, ImageShape) {
            return f(in, static_cast<int32_t>(p.at("patch")), static_cast<int32_t>(p.at("search")),
                     static_cast<float>(p.at("h")), out);
        });
    if (backend == Backend::cuda && name.starts_with("cuda_auto_")) v.image_limit = offset_planes_fit;
    return v;
}

}  // namespace filterlab
