#include "report_text.h"

#include <algorithm>
#include <fmt/format.h>

namespace filterlab::report_text {

std::string format_time(double us) {
    if (us < 1e3) return fmt::format("{:.4g} µs", us);
    if (us < 1e6) return fmt::format("{:.4g} ms", us / 1e3);
    return fmt::format("{:.4g} s", us / 1e6);
}

std::string size_label(std::pair<int, int> s) {
    return s.first == s.second ? fmt::format("{}²", s.first) : fmt::format("{}×{}", s.first, s.second);
}

std::string markdown_table(const std::vector<std::string> &header, const std::vector<std::vector<std::string>> &rows,
                           std::size_t left) {
    auto line = [](const std::vector<std::string> &cells) {
        std::string s = "|";
        for (const std::string &c : cells) {
            std::string escaped;
            for (char ch : c) escaped += ch == '|' ? std::string("\\|") : std::string(1, ch);
            s += " " + escaped + " |";
        }
        return s + "\n";
    };
    std::string s = line(header) + "|";
    for (std::size_t i = 0; i < header.size(); i++) s += i < left ? " --- |" : " ---: |";
    s += "\n";
    for (auto &r : rows) s += line(r);
    return s + "\n";
}

std::string by_reason(const std::vector<std::pair<std::string, std::string>> &named) {
    std::vector<std::pair<std::string, std::string>> groups;  // why, names
    for (auto &[name, why] : named) {
        auto it = std::find_if(groups.begin(), groups.end(), [&](auto &g) { return g.first == why; });
        if (it == groups.end()) it = groups.insert(groups.end(), {why, ""});
        it->second += (it->second.empty() ? "`" : ", `") + name + "`";
    }
    std::string s;
    for (auto &[why, names] : groups) s += (s.empty() ? "" : "; ") + why + ": " + names;
    return s;
}

}  // namespace filterlab::report_text
