// One library of a schedule (Halide's or TVM's) among those compiled for
// fixed values of some parameters (the median's size), and the choice
// between them at run time.
#pragma once

#include <vector>

#include "error.h"
#include "filters.h"

namespace filterlab {

// One library of a schedule: the parameter values it was compiled for (empty
// when all are run-time parameters) and its entry point; for a schedule that
// also writes 32-bit words (WRITES("words")), the entry point of that twin.
template <typename Function>
struct CompiledPipeline {
    ParamValues fixed;
    Function function;
    Function words = nullptr;
};

// The library compiled for these parameters (the harness has already refused
// values the variant does not support).
// `words_out`: the output is given as 32-bit words (the binding chose the
// words twin, which a library without one never is).
template <typename Function>
Function select_pipeline(const std::vector<CompiledPipeline<Function>> &compiled, const ParamValues &params,
                         bool words_out = false) {
    for (auto &c : compiled) {
        bool match = true;
        for (auto &[name, value] : c.fixed) match = match && params.at(name) == value;
        if (match && words_out && !c.words) throw Error("no library writing words compiled for " + format_params(params));
        if (match) return words_out ? c.words : c.function;
    }
    throw Error("no library compiled for " + format_params(params));
}

}  // namespace filterlab
