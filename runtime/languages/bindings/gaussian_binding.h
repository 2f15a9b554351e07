// How a gaussian pipeline is called: gaussian(input, w0, w1, w2, output),
// with the contract's weights computed on the host from sigma. Pipelines that
// start with the Gaussian (gaussian_maxpool on bytes) are called the same way.
#pragma once

#include "halide_variant.h"
#include "reference.h"

namespace filterlab {

using GaussianPipeline = int (*)(halide_buffer_t *, int32_t, int32_t, int32_t, halide_buffer_t *);

// The contract's weights for the caller's sigma in the pipelines' order: w0
// the centre, w1 and w2 the sides (reference::gaussian_weights lists w_-2..w_2).
struct GaussianPipelineWeights {
    int32_t w0, w1, w2;
};
inline GaussianPipelineWeights gaussian_pipeline_weights(const ParamValues &params) {
    const auto w = reference::gaussian_weights(params.at("sigma"));
    return {w[2], w[1], w[0]};
}

inline Variant gaussian_weights_variant(const std::string &filter, const std::string &name, Backend backend,
                                        const std::string &supports,
                                        std::vector<CompiledPipeline<GaussianPipeline>> compiled,
                                        Views views = {}) {
    return halide_variant(
        filter, name, backend, supports, std::move(compiled),
        [](GaussianPipeline f, halide_buffer_t *in, halide_buffer_t *out, const ParamValues &p, ImageShape) {
            const GaussianPipelineWeights w = gaussian_pipeline_weights(p);
            return f(in, w.w0, w.w1, w.w2, out);
        },
        views);
}

inline Variant gaussian_halide_variant(const std::string &name, Backend backend, const std::string &supports,
                                       std::vector<CompiledPipeline<GaussianPipeline>> compiled,
                                       Views views = {}) {
    return gaussian_weights_variant("gaussian", name, backend, supports, std::move(compiled), views);
}

}  // namespace filterlab
