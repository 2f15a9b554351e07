// `filterlab check`'s results for machines: JSON (a format version, totals,
// one object per variant) and JUnit XML (one test case per variant), the
// formats CI systems read.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "check.h"

namespace filterlab::cli {

nlohmann::json check_json(const std::vector<VariantResult> &results);
std::string check_junit_xml(const std::vector<VariantResult> &results);

}  // namespace filterlab::cli
