// How a maxpool pipeline is called: maxpool(input, output), no parameters.
#pragma once

#include "halide_variant.h"

namespace filterlab {

inline Variant maxpool_halide_variant(const std::string &name, Backend backend, const std::string &supports,
                                  std::vector<CompiledPipeline<ImagePipeline>> compiled, Views views = {}) {
    return image_pipeline_variant("maxpool", name, backend, supports, std::move(compiled), views);
}

}  // namespace filterlab
