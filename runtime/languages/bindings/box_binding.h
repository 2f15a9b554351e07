// How a box pipeline is called: box(input, radius, output).
#pragma once

#include "halide_variant.h"

namespace filterlab {

using BoxPipeline = int (*)(halide_buffer_t *, int32_t, halide_buffer_t *);

inline Variant box_halide_variant(const std::string &name, Backend backend, const std::string &supports,
                                  std::vector<CompiledPipeline<BoxPipeline>> compiled, Views views = {}) {
    return halide_variant(
        "box", name, backend, supports, std::move(compiled),
        [](BoxPipeline f, halide_buffer_t *in, halide_buffer_t *out, const ParamValues &p, ImageShape) {
            return f(in, static_cast<int32_t>(p.at("radius")), out);
        },
        views);
}

}  // namespace filterlab
