// A bench run's results, written once for `filterlab bench` and for the peer
// timings `filterlab import-peers` brings in: each case's measures computed
// from the statistics of its samples, then results.csv (the schema's writer,
// results_schema.h), results.json (Google Benchmark's format, with the run's
// context) and table.txt.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench_common.h"
#include "results_schema.h"

namespace filterlab {

// One case's row and the statistics of its samples (results.json's aggregates).
struct TimedRow {
    BenchRow row;
    Stats stats;
};

// The row's measures from its samples' statistics, computed here only: the
// median and quantiles, the spread, the throughput over `bytes` (each input
// sample read once, each output sample written once) and the share of the
// copy roofline (`roofline` GB/s; 0 where the row's device is not the one it
// was measured on). An untimed row keeps zeros.
void set_measures(BenchRow &row, const Stats &stats, double bytes, double roofline);

// The run's opening lines on standard error (GPU, OpenCL device, CPU, peer
// plugins) and the copy roofline it measures (GB/s; 0 without a GPU).
double measure_roofline(const BenchOptions &o, const cuda::Clocks &clocks_start);

// results.json's context: the machine's `facts` (machine_facts()), the run
// format, the copy roofline, the transfers measured, and close_run_context's
// command and GPU clocks (at `clocks_start` and now).
nlohmann::json run_context(nlohmann::json facts, const BenchOptions &o, double roofline, nlohmann::json transfers,
                           const cuda::Clocks &clocks_start);

// results.csv, results.json (Google Benchmark's format, `context` included),
// table.txt (headed by `command_line`) in `dir`, and the table on standard
// output. `context` holds copy_roofline_gb_per_s, transfers and the GPU clocks.
void write_run_results(const std::string &dir, const std::string &command_line, const std::vector<TimedRow> &rows,
                       const nlohmann::json &context);

}  // namespace filterlab
