// What the tests of `filterlab report` share (test_report.cpp,
// test_report_runs.cpp): their scratch folder, made once per test process,
// a tiny bench run, and the Markdown tables of a report page.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.h"

namespace report_test {

// The scratch folder of these tests.
inline std::filesystem::path work() {
    static const std::filesystem::path d = [] {
        std::filesystem::remove_all(cli_test::dir() / "report");
        std::filesystem::create_directories(cli_test::dir() / "report");
        return cli_test::dir() / "report";
    }();
    return d;
}

// A new bench run of the box filter on the CPU at two small sizes; its directory.
inline std::filesystem::path bench_run(const std::string &root) {
    const std::filesystem::path runs = work() / root;
    const cli_test::Result r = cli_test::run_cli("bench --filter box --backend cpu --sizes 48,96 --param radius=1 "
                                                 "--min-reps 3 --min-time 0 --out " + runs.string());
    INFO(r.out, r.err);
    REQUIRE(r.status == 0);
    REQUIRE(std::distance(std::filesystem::directory_iterator(runs), std::filesystem::directory_iterator()) == 1);
    return std::filesystem::directory_iterator(runs)->path();
}

// The lines of the Markdown table whose header holds `first_column` and the
// size columns, as cells; several tables with the same header, in order.
inline std::vector<std::vector<std::vector<std::string>>> tables(const std::string &page,
                                                                 const std::string &header_start) {
    std::vector<std::vector<std::vector<std::string>>> found;
    std::stringstream lines(page);
    std::string line;
    bool inside = false;
    while (std::getline(lines, line)) {
        if (line.rfind(header_start, 0) == 0) {
            found.emplace_back();
            inside = true;
        } else if (line.rfind("|", 0) != 0) {
            inside = false;
        }
        if (!inside) continue;
        std::vector<std::string> cells;
        std::stringstream s(line.substr(1));
        std::string cell;
        while (std::getline(s, cell, '|')) cells.push_back(std::regex_replace(cell, std::regex("^ +| +$"), ""));
        found.back().push_back(cells);
    }
    return found;
}

}  // namespace report_test
