// The report's plots: each section adds a plot's specification (a JSON
// object, its "file" the image to write) and gets back the Markdown line that
// shows it. scripts/plots.py draws them all with matplotlib: installed as
// share/filterlab/plots.py beside bin/, copied to <build>/share/filterlab/ by
// the build, it is found relative to the executable. Python is
// $FILTERLAB_PYTHON, else <source>/.venv/bin/python, else python3 on PATH.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace filterlab {

// The plots of one page. A page is composed with a list that shows its plots;
// when they could not be drawn, it is composed again with one that does not
// (`drawn` false), so the page never links an image that is not there.
class PlotList {
public:
    explicit PlotList(bool drawn = true) : drawn_(drawn) {}
    // Adds the plot and returns "![alt](file)\n\n", or "" when not drawn.
    std::string add(nlohmann::json spec, const std::string &alt);
    const nlohmann::json &specs() const { return specs_; }
    bool drawn() const { return drawn_; }

private:
    bool drawn_;
    nlohmann::json specs_ = nlohmann::json::array();
};

struct PlotOutcome {
    bool made = false;
    std::string why;  // when not made: no script, no Python, no matplotlib, the script failed
};

// Runs the script on the plots, each written under out_dir; all or nothing:
// when one is missing, none is left there. `source_dir` may hold a .venv.
PlotOutcome make_plots(const PlotList &plots, const std::string &out_dir, const std::string &source_dir);

}  // namespace filterlab
