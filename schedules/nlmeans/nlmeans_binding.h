// How an nlmeans pipeline is called: nlmeans(input, patch, search, h, output).
#pragma once

#include "halide_variant.h"

namespace filterlab {

using NlmeansPipeline = int (*)(halide_buffer_t *, int32_t, int32_t, float, halide_buffer_t *);

inline Variant nlmeans_halide_variant(const std::string &name, Backend backend, const std::string &supports,
                                      std::vector<CompiledPipeline<NlmeansPipeline>> compiled) {
    return halide_variant(
        "nlmeans", name, backend, supports, std::move(compiled),
        [](NlmeansPipeline f, halide_buffer_t *in, halide_buffer_t *out, const ParamValues &p, ImageShape) {
            return f(in, static_cast<int32_t>(p.at("patch")), static_cast<int32_t>(p.at("search")),
                     static_cast<float>(p.at("h")), out);
        });
}

}  // namespace filterlab
