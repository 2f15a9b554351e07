// The report's sweeps (`filterlab sweep` runs, sweep.json): per parameter set
// and size, the best point, every point within the measured noise of it, the
// best-to-worst and default-to-best ratios, and a plot of the space: a line
// for one axis, a heatmap for two, small multiples of heatmaps for more
// (scripts/plots.py, kind "sweep").
#pragma once

#include <string>
#include <vector>

#include "report_plots.h"
#include "run_dir.h"

namespace filterlab {

// The sweeps of `filter` among one machine's runs (`slug` names the machine).
std::string sweeps_section(const std::vector<const RunDir *> &runs, const std::string &filter, const std::string &slug,
                           PlotList &plots);

}  // namespace filterlab
