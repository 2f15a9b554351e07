// The one schema of a bench result: the row type, its status, and
// results.csv's columns, written and read by the same code. The bench writes
// rows with to_csv_line; the report reads them back with parse_csv_line. No
// CUDA, no Halide: the report links it alone.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "variant_origin.h"

namespace filterlab {

// How a bench case ended: timed (ok; differs, a peer computing another
// function, timed too), or not (wrong: failed its check; error: failed to run;
// skipped: could not run here or with these parameters).
enum class Status { ok, differs, wrong, error, skipped };
const char *to_string(Status status);
inline bool is_timed(Status status) { return status == Status::ok || status == Status::differs; }
Status parse_status(std::string_view text);  // throws Error

// One line of results.csv. A variant's identity is data: its backend, kind,
// origin (variant_origin.h), algorithm and, for a point of a schedule's space,
// the values it fixes ("tile_x=64+tile_y=8", point_text); nothing parses its name.
struct BenchRow {
    std::string filter, variant, backend, kind;
    Origin origin = Origin::reference;
    std::string algorithm, point;
    // A DSL variant's path for this image (registry.h: shape_path): "exact"
    // (its library compiled for the shape), "aligned" (the aligned class's) or
    // "generic"; empty for the others.
    std::string path;
    int width = 0, height = 0, channels = 0;
    std::string params;
    Status status = Status::ok;
    int samples = 0, buffers = 0;
    double median_us = 0, min_us = 0, max_us = 0, p25_us = 0, p75_us = 0;
    double spread_pct = 0, gb_per_s = 0, roofline_pct = 0;
    int threads = 0;
    std::string note;
    bool timed() const { return is_timed(status); }
};

// results.csv's first line: the column names, in order (run format
// kRunFormat, run_format.h).
const std::string &results_csv_header();
// One row as a CSV line (no newline); commas in the note become ';'.
std::string to_csv_line(const BenchRow &row);
// A CSV line back into a row; throws Error naming the column that is wrong.
BenchRow parse_csv_line(const std::string &line);
// The header and a line of an older run format (run_format.h): its columns, the later ones left unset.
std::string results_csv_header(int format);
BenchRow parse_csv_line(const std::string &line, int format);
std::string to_csv_line(const BenchRow &row, int format);

// A point of a schedule's space (each axis and its value, as the registry
// holds it) as the point column spells it, the one spelling of a point
// (runtime/base/schedule_point.h): "tile_x=64+tile_y=8"; empty for no point.
std::string point_text(const std::vector<std::pair<std::string, int>> &point);

// Run format 2's results.csv, without the origin, algorithm and point columns:
// its header, and a line of it read into a row whose origin, algorithm and
// point are left unset for the caller's compatibility path (run_dir.cpp) to
// derive. Read only: nothing writes format 2 any more.
const std::string &format2_csv_header();
BenchRow parse_format2_csv_line(const std::string &line);

}  // namespace filterlab
