// The results of `bench --batch`: batch.csv (medians and quartiles of every
// phase, milliseconds per batch; an empty cell where a phase does not apply),
// batch.json (every statistic, and the run's context) and batch.txt (the
// command and the table), also printed.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "batch_timing.h"
#include "bench.h"

namespace filterlab {

void write_batch_results(const std::string &dir, const BenchOptions &o, const BatchShape &b,
                         const std::vector<BatchResult> &results, nlohmann::json context);

}  // namespace filterlab
