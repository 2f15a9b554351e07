// The report's opening: the answer on one screen (per filter and parameter
// set, the best Halide variant, the best hand-written one and the fastest
// peer, their ratios and one plot of them), then every kind at a glance.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "report_model.h"
#include "report_plots.h"

namespace filterlab {

// The answer, with its plot added to `plots`.
std::string answer_section(const std::vector<std::string> &filters,
                           const std::map<std::string, std::vector<report_model::View>> &views, PlotList &plots);

// The best of every kind at the largest size, per filter and machine.
std::string glance_section(const std::vector<std::string> &filters,
                           const std::map<std::string, std::vector<report_model::View>> &views);

}  // namespace filterlab
