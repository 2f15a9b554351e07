// How a gaussian_maxpool pipeline is called: as a gaussian one,
// gaussian_maxpool(input, w0, w1, w2, output); on a word view (READS("words")),
// with the image's width in pixels after w2, which neither the words nor the
// pooled output tell (generators/gaussian_maxpool_generator.cpp).
#pragma once

#include "gaussian_binding.h"

namespace filterlab {

using GaussianMaxpoolWordsPipeline = int (*)(halide_buffer_t *, int32_t, int32_t, int32_t, int32_t, halide_buffer_t *);

inline Variant gaussian_maxpool_halide_variant(const std::string &name, Backend backend, const std::string &supports,
                                               std::vector<CompiledPipeline<GaussianPipeline>> compiled,
                                               Views views = {}) {
    return gaussian_weights_variant("gaussian_maxpool", name, backend, supports, std::move(compiled), views);
}

inline Variant gaussian_maxpool_halide_variant(const std::string &name, Backend backend, const std::string &supports,
                                               std::vector<CompiledPipeline<GaussianMaxpoolWordsPipeline>> compiled,
                                               Views views) {
    return halide_variant(
        "gaussian_maxpool", name, backend, supports, std::move(compiled),
        [](GaussianMaxpoolWordsPipeline f, halide_buffer_t *in, halide_buffer_t *out, const ParamValues &p,
           ImageShape image) {
            const GaussianPipelineWeights w = gaussian_pipeline_weights(p);
            return f(in, w.w0, w.w1, w.w2, image.width, out);
        },
        views);
}

}  // namespace filterlab
