// How a maxpool pipeline is called: maxpool(input, output).
#pragma once

#include "halide_variant.h"

namespace filterlab {

using MaxpoolPipeline = int (*)(halide_buffer_t *, halide_buffer_t *);

inline Variant maxpool_halide_variant(const std::string &name, Backend backend, const std::string &supports,
                                      std::vector<CompiledPipeline<MaxpoolPipeline>> compiled) {
    return halide_variant("maxpool", name, backend, supports,
                          [compiled](halide_buffer_t *in, halide_buffer_t *out, const ParamValues &p) {
                              return select_pipeline(compiled, p)(in, out);
                          });
}

}  // namespace filterlab
