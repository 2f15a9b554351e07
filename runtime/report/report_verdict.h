// The report's DSL-versus-hand verdict for one filter: per device and size,
// the best Halide schedule against the best handwritten variant; then, per
// size, where the best schedules come from (named by hand, autoscheduled, a
// sweep's point) beside the best handwritten one; and the lines of code of
// each, counted from the source tree (source_lines.h).
#pragma once

#include <string>
#include <vector>

#include "report.h"
#include "report_model.h"

namespace filterlab {

std::string verdict_section(const std::string &filter, const std::vector<report_model::View> &views,
                            const ReportOptions &o);

}  // namespace filterlab
