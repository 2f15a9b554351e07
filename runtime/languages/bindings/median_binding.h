// How a median pipeline is called: median(input, output), one library per k.
#pragma once

#include "halide_variant.h"

namespace filterlab {

inline Variant median_halide_variant(const std::string &name, Backend backend, const std::string &supports,
                                  std::vector<CompiledPipeline<ImagePipeline>> compiled, Views views = {}) {
    return image_pipeline_variant("median", name, backend, supports, std::move(compiled), views);
}

}  // namespace filterlab
