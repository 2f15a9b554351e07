// The report's closing facts: per machine its host, CPU, GPU, copy roofline,
// plugins and Halide targets, then each of its runs with the commit, the GPU
// clocks at start and end, and the command that made it.
#pragma once

#include <string>
#include <vector>

#include "report_model.h"

namespace filterlab {

std::string machines_section(const std::vector<report_model::Machine> &machines);

}  // namespace filterlab
