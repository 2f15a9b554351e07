// How a gaussian_maxpool pipeline is called: as a gaussian one,
// gaussian_maxpool(input, w0, w1, w2, output).
#pragma once

#include "../gaussian/gaussian_binding.h"

namespace filterlab {

inline Variant gaussian_maxpool_halide_variant(const std::string &name, Backend backend, const std::string &supports,
                                               std::vector<CompiledPipeline<GaussianPipeline>> compiled) {
    return gaussian_weights_variant("gaussian_maxpool", name, backend, supports, std::move(compiled));
}

}  // namespace filterlab
