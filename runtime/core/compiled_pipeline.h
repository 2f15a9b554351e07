// One library of a schedule (Halide's or TVM's) among those compiled for
// fixed values of some parameters (the median's size), and the choice
// between them at run time.
#pragma once

#include <vector>

#include "error.h"
#include "filters.h"

namespace filterlab {

// One library of a schedule: the parameter values it was compiled for (empty
// when all are run-time parameters) and its entry point.
template <typename Function>
struct CompiledPipeline {
    ParamValues fixed;
    Function function;
};

// The library compiled for these parameters (the harness has already refused
// values the variant does not support).
template <typename Function>
Function select_pipeline(const std::vector<CompiledPipeline<Function>> &compiled, const ParamValues &params) {
    for (auto &c : compiled) {
        bool match = true;
        for (auto &[name, value] : c.fixed) match = match && params.at(name) == value;
        if (match) return c.function;
    }
    throw Error("no library compiled for " + format_params(params));
}

}  // namespace filterlab
