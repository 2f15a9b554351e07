// How a median pipeline is called: median(input, output), one library per k.
#pragma once

#include "halide_variant.h"

namespace filterlab {

using MedianPipeline = int (*)(halide_buffer_t *, halide_buffer_t *);

inline Variant median_halide_variant(const std::string &name, Backend backend, const std::string &supports,
                                     std::vector<CompiledPipeline<MedianPipeline>> compiled) {
    return halide_variant("median", name, backend, supports,
                          [compiled](halide_buffer_t *in, halide_buffer_t *out, const ParamValues &p) {
                              return select_pipeline(compiled, p)(in, out);
                          });
}

}  // namespace filterlab
