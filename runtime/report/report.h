// `filterlab report`: turns bench run directories (one or several, from
// different machines) into a Markdown page with its images: per filter the
// tables of time, speed-up, GB/s and share of the copy roofline, the best of
// each kind marked; plots; the DSL-versus-hand verdict with lines of code
// counted from the source tree; the gallery's pictures and histograms; the
// machine facts and command of every run.
//
// Tables, verdict and counts are made here; the plots by scripts/plots.py
// (report_plots.h says where it and Python are found). Without Python or
// matplotlib the report says the plots were skipped, and why, and is otherwise
// complete; without a source tree it says the lines were not counted. The
// loop nests are copied beside the page only when asked (with_code): the
// build regenerates them.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "source_span.h"

namespace filterlab {

struct ReportOptions {
    std::vector<std::string> run_dirs;
    std::string out_dir;
    std::string source_dir;  // for the line counts (and its .venv's Python, if any)
    // Where each Halide schedule is defined, by (filter, variant): the build's
    // reading of the registrations, for the line counts.
    std::map<std::pair<std::string, std::string>, SourceSpan> schedule_sources;
    // Each Halide variant's static libraries, by (filter, variant), and the
    // build folder holding their loop nests (<library>.stmt, .stmt.html) and
    // kernel_resources.json (report_made.h).
    std::map<std::pair<std::string, std::string>, std::vector<std::string>> libraries;
    std::string build_dir;
    bool with_code = false;  // copy the best variants' loop nests beside the page (stmt/)
    // Each variant's algorithm, by (filter, variant), from this build's
    // registry, and the algorithms of filters that have several (in order):
    // the verdict compares Halide with hand on each algorithm.
    std::map<std::pair<std::string, std::string>, std::string> algorithms;
    std::map<std::string, std::vector<std::string>> filter_algorithms;
    // Each OpenCL variant's CUDA twin, by (filter, variant), from this build's
    // registry (cuda_twin): the report's OpenCL-against-CUDA pairs.
    std::map<std::pair<std::string, std::string>, std::string> cuda_twins;
    std::string command_line;
};

struct ReportResult {
    std::string path;  // of report.md
    bool plots_made = false;
    std::string plots_why;  // why not, when not
};

// Writes <out_dir>/report.md and its images. Throws Error (a run directory
// missing, partial or of another format) before writing anything.
ReportResult write_report(const ReportOptions &options);

}  // namespace filterlab
