// The report's plots: a JSON list of plot specifications, drawn by
// scripts/plots.py with matplotlib. Python is looked for as
// $FILTERLAB_PYTHON, else <source>/.venv/bin/python, else python3 on PATH.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace filterlab {

struct PlotOutcome {
    bool made = false;
    std::string why;  // when not made: no Python, no matplotlib, the script failed
};

// Writes <out_dir>/plots.json and runs the script on it; each plot's "file"
// is written under out_dir.
PlotOutcome make_plots(const nlohmann::json &plots, const std::string &out_dir, const std::string &source_dir);

}  // namespace filterlab
