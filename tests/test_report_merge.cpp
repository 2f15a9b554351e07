// How `filterlab report` merges the runs of one machine (report_model.h's
// group_machines): a case measured twice keeps the later run's result, unless
// the later run only skipped it (a peer missing there, say).
#include <doctest/doctest.h>

#include "report_model.h"
#include "run_dir.h"

using namespace filterlab;
using namespace filterlab::report_model;

namespace {

RunDir run_with(const std::string &path, Status status, double median_us) {
    RunDir run;
    run.path = path;
    run.context = {{"host_name", "h100"}, {"cpu", {{"model", "Xeon"}}}};
    BenchRow row;
    row.filter = "median", row.variant = "py_cvcuda_median_blur", row.width = row.height = 4096;
    row.channels = 1, row.params = "size=7", row.status = status, row.median_us = median_us;
    run.rows.push_back(row);
    return run;
}

}  // namespace

TEST_CASE("report merge: the later run wins, except where it only skipped what an earlier run measured") {
    const std::vector<RunDir> measured_then_skipped = {run_with("a", Status::ok, 1958), run_with("b", Status::skipped, 0)};
    const auto kept = group_machines(measured_then_skipped);
    REQUIRE(kept.size() == 1);
    REQUIRE(kept[0].rows.size() == 1);
    CHECK(kept[0].rows[0].status == Status::ok);
    CHECK(kept[0].rows[0].median_us == 1958);

    const std::vector<RunDir> measured_twice = {run_with("a", Status::ok, 1958), run_with("b", Status::ok, 1900)};
    CHECK(group_machines(measured_twice)[0].rows[0].median_us == 1900);

    const std::vector<RunDir> skipped_then_measured = {run_with("a", Status::skipped, 0), run_with("b", Status::ok, 1958)};
    CHECK(group_machines(skipped_then_measured)[0].rows[0].status == Status::ok);
}
