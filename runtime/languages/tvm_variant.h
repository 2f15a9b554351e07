// Turns the launchers of a TVM schedule's libraries (CUDA C that TVM wrote
// and nvcc compiled ahead of time: filterlab_build/cuda_source.py) into a
// registered CUDA variant. No TVM runtime is involved: a launcher is a plain
// function that launches its kernels on the caller's stream. Like every CUDA
// variant it returns without waiting for the GPU: the caller synchronises.
#pragma once

#include <string>
#include <vector>

#include "compiled_pipeline.h"
#include "launch_axis.h"
#include "registry.h"
#include "tvm_call.h"

namespace filterlab {

// A TVM library's register cap when its point does not set one, TVM's own
// choice on the launch's axis: 0, none written, TVM's __launch_bounds__(threads)
// left for ptxas to choose by.
inline constexpr int kTvmMaxRegisters = launch_axis::kTvmOwn;

// How a filter's run-time parameters become an algorithm's scalars (in the
// order its Algorithm.scalars declares them): one function per filter,
// named by the algorithm (generators/tvm/<filter>.py: `binding`).
namespace tvm_scalars {
void none(const ParamValues &, filterlab_tvm_call &);
void gaussian_weights(const ParamValues &, filterlab_tvm_call &);  // ints: w0 (centre), w1, w2
void nlmeans_h(const ParamValues &, filterlab_tvm_call &);         // floats: h
}  // namespace tvm_scalars
using TvmScalars = void (*)(const ParamValues &, filterlab_tvm_call &);

Variant tvm_variant(const std::string &filter, const std::string &name, const std::string &supports,
                    std::vector<CompiledPipeline<filterlab_tvm_launcher>> libraries, TvmScalars scalars);

}  // namespace filterlab
