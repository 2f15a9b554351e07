// The one schema of a bench result: the row type, its status, and
// results.csv's columns, written and read by the same code. The bench writes
// rows with to_csv_line; the report reads them back with parse_csv_line. No
// CUDA, no Halide: the report links it alone.
#pragma once

#include <string>
#include <string_view>

namespace filterlab {

// How a bench case ended: timed (ok; differs, a peer computing another
// function, timed too), or not (wrong: failed its check; error: failed to run;
// skipped: could not run here or with these parameters).
enum class Status { ok, differs, wrong, error, skipped };
const char *to_string(Status status);
inline bool is_timed(Status status) { return status == Status::ok || status == Status::differs; }
Status parse_status(std::string_view text);  // throws Error

// One line of results.csv.
struct BenchRow {
    std::string filter, variant, backend, kind;
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

// results.csv's first line: the column names, in order.
const std::string &results_csv_header();
// One row as a CSV line (no newline); commas in the note become ';'.
std::string to_csv_line(const BenchRow &row);
// A CSV line back into a row; throws Error naming the column that is wrong.
BenchRow parse_csv_line(const std::string &line);

}  // namespace filterlab
