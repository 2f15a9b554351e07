// The report's "OpenCL against CUDA" section: the seed paper's question (its
// OpenCL median came out 1.15x faster than its CUDA one) asked of every pair
// measured on one machine: the same Halide schedule built for both APIs
// (opencl_X beside cuda_X), and each hand-written OpenCL kernel beside the
// CUDA kernel it ports (cl_X beside hw_X).
#pragma once

#include <string>
#include <vector>

#include "report_model.h"

namespace filterlab {

// The counterpart of an OpenCL variant's name on CUDA, or "" when it has none.
std::string cuda_counterpart(const std::string &opencl_variant);

std::string opencl_section(const std::string &filter, const std::vector<report_model::View> &views);

}  // namespace filterlab
