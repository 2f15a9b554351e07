// Reading a `filterlab bench` run directory back (run_format.h), for the
// report. Every way a directory can be wrong — missing, not a run, cut short,
// written by an older filterlab — ends in an Error naming the directory and
// what is wrong, never in a crash.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "results_schema.h"

namespace filterlab {

struct RunDir {
    std::string path;
    nlohmann::json context;  // results.json's: machine facts, command, roofline
    std::vector<BenchRow> rows;
    nlohmann::json gallery;  // gallery/gallery.json
    nlohmann::json sweep;    // sweep.json of `filterlab sweep`; null for a plain bench run
};

// Each variant's algorithm by (filter, variant) in this build's registry:
// for runs of format 2, which did not record it (run_format.h, run_dir.cpp).
using KnownAlgorithms = std::map<std::pair<std::string, std::string>, std::string>;

RunDir load_run_dir(const std::string &path, const KnownAlgorithms &known = {});  // throws Error

}  // namespace filterlab
