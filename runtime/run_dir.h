// Reading a `filterlab bench` run directory back (run_format.h), for the
// report. Every way a directory can be wrong — missing, not a run, cut short,
// written by an older filterlab — ends in an Error naming the directory and
// what is wrong, never in a crash.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace filterlab {

// One line of results.csv.
struct BenchRow {
    std::string filter, variant, backend, kind;
    int width = 0, height = 0, channels = 0;
    std::string params, status;
    int samples = 0, buffers = 0;
    double median_us = 0, min_us = 0, max_us = 0, p25_us = 0, p75_us = 0;
    double spread_pct = 0, gb_per_s = 0, roofline_pct = 0;
    int threads = 0;
    std::string note;
    bool timed() const { return status == "ok" || status == "differs"; }
};

struct RunDir {
    std::string path;
    nlohmann::json context;  // results.json's: machine facts, command, roofline
    std::vector<BenchRow> rows;
    nlohmann::json gallery;  // gallery/gallery.json
};

// The columns results.csv has in this format, in order.
extern const char *const kResultsCsvHeader;

RunDir load_run_dir(const std::string &path);  // throws Error

}  // namespace filterlab
