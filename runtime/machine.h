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
nlohmann::json machine_facts();  // CPU, threads, GPU, build

}  // namespace filterlab
