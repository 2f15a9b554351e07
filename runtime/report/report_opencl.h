// The report's "OpenCL against CUDA" section: the seed paper's question (its
// OpenCL median beat its CUDA one: is that the API or the code?) asked of every pair
// measured on one machine: the same Halide schedule built for both APIs
// (the registry's cuda_twin), and each hand-written OpenCL kernel beside the
// CUDA kernel it ports (its registration says which).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "report_model.h"

namespace filterlab {

// `twins`: each OpenCL variant's CUDA twin by (filter, variant) (ReportOptions::cuda_twins).
std::string opencl_section(const std::string &filter, const std::vector<report_model::View> &views,
                           const std::map<std::pair<std::string, std::string>, std::string> &twins);

}  // namespace filterlab
