// The report's Markdown pieces that every section uses.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace filterlab::report_text {

// Four significant digits in the unit that suits: "697.7 µs", "2.360 s".
std::string format_time(double us);
std::string size_label(std::pair<int, int> size);  // "4096²", "4096×2304"
// Columns are left-aligned up to `left`, right-aligned (numbers) after.
std::string markdown_table(const std::vector<std::string> &header, const std::vector<std::vector<std::string>> &rows,
                           std::size_t left = 2);
// "why: `a`, `b`; other why: `c`" for (name, why) pairs, grouped by why in order.
std::string by_reason(const std::vector<std::pair<std::string, std::string>> &named);

}  // namespace filterlab::report_text
