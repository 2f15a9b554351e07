// Facts about the machine and the build, for `filterlab info` and every
// benchmark result.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace filterlab {

std::string cpu_model();
std::string cpu_features();  // the SIMD features Halide's targets care about
// The CPU's largest cache as sysfs gives it (cpu0's highest level, L3 on the
// Xeon: 300 MiB); 0 when unknown.
double last_level_cache_bytes();
std::string build_commit();
std::string halide_targets();  // the targets the AOT libraries were built for
std::string halide_version();  // of the Halide runtime linked in, e.g. "21.0.0"
int halide_thread_count();     // the threads Halide's CPU pipelines use (HL_NUM_THREADS, else every core)
nlohmann::json machine_facts();  // CPU, threads, GPU, build

}  // namespace filterlab
