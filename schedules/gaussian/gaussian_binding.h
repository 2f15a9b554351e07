// How a gaussian pipeline is called: gaussian(input, w0, w1, w2, output),
// with the contract's weights computed on the host from sigma. Pipelines that
// start with the Gaussian (gaussian_maxpool on bytes) are called the same way.
#pragma once

#include "halide_variant.h"
#include "reference.h"

namespace filterlab {

using GaussianPipeline = int (*)(halide_buffer_t *, int32_t, int32_t, int32_t, halide_buffer_t *);

inline Variant gaussian_weights_variant(const std::string &filter, const std::string &name, Backend backend,
                                        const std::string &supports,
                                        std::vector<CompiledPipeline<GaussianPipeline>> compiled,
                                        InputView view = InputView::bytes) {
    return halide_variant(
        filter, name, backend, supports,
        [compiled](halide_buffer_t *in, halide_buffer_t *out, const ParamValues &p, int) {
            const auto w = reference::gaussian_weights(p.at("sigma"));
            return select_pipeline(compiled, p)(in, w[2], w[1], w[0], out);
        },
        view);
}

inline Variant gaussian_halide_variant(const std::string &name, Backend backend, const std::string &supports,
                                       std::vector<CompiledPipeline<GaussianPipeline>> compiled,
                                       InputView view = InputView::bytes) {
    return gaussian_weights_variant("gaussian", name, backend, supports, std::move(compiled), view);
}

}  // namespace filterlab
