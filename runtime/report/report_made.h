// The report's "what the schedules made" for one filter: per CUDA variant
// timed (Halide's and handwritten alike) its kernels' registers, shared
// memory and local-memory spills (kernel_resources.json of the build,
// filterlab_build/kernel_resources.py) beside its time; per Halide variant the loop
// nest Halide lowered it to (<library>.stmt, named in the build folder; with
// --with-code the best of each origin copied beside the report).
#pragma once

#include <string>
#include <vector>

#include "report.h"
#include "report_model.h"

namespace filterlab {

std::string made_section(const std::string &filter, const std::vector<report_model::View> &views,
                         const ReportOptions &o);

}  // namespace filterlab
