// `filterlab bench --threads 1,2,4`: CPU thread scaling. One benchmark run per
// thread count, each its own run directory, for `filterlab report` to show
// together.
#pragma once

#include <string>
#include <vector>

#include "bench.h"

namespace filterlab::cli {

// Times the Halide CPU variants and the reference (peers keep their own
// thread pools, which Halide's count does not set) of the chosen filters —
// default: every filter with a Halide CPU variant — at each thread count.
// Returns the run directories. Throws Error.
std::vector<std::string> bench_thread_counts(BenchOptions options, const std::vector<int> &threads);

}  // namespace filterlab::cli
