// Facts about the machine and the build, for `filterlab info` and every
// benchmark result.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace filterlab {

std::string cpu_model();
std::string cpu_features();  // the SIMD features Halide's targets care about
std::string build_commit();
std::string halide_targets();  // the targets the AOT libraries were built for
std::string halide_version();  // of the Halide runtime linked in, e.g. "21.0.0"
nlohmann::json machine_facts();  // CPU, threads, GPU, build

}  // namespace filterlab
