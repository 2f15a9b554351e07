// `filterlab bench`: times variants side by side. Every result is checked
// against the reference before it is timed; a wrong variant is reported
// wrong, not timed.
//
// GPU: CUDA events around the launches only, on inputs and outputs rotating
// over enough buffers that the working set exceeds twice the GPU's L2; one
// sample is one launch per buffer (so launches queue back to back), divided
// by the buffer count. CPU: a steady clock around each call. Both warm up
// first and repeat until a minimum count and a minimum time are reached.
#pragma once

#include <string>
#include <vector>

#include "image.h"

namespace filterlab {

struct BenchOptions {
    std::vector<std::string> filters;   // empty: all that have variants besides the reference
    std::vector<std::string> variants;  // empty: all of those filters'
    std::vector<std::string> backends;  // empty: cpu and cuda
    std::vector<ImageShape> sizes = {{256, 256}, {1024, 1024}, {4096, 4096}, {8192, 8192}};  // --sizes 8192,1920x1080
    std::vector<int> channels = {1};
    // Also time a DSL variant's more general paths where it has a more
    // specialised one for the image (--paths all: exact, aligned, generic
    // side by side, results.csv's path column).
    bool every_path = false;
    std::vector<std::string> params;  // NAME=VALUE for every filter that has NAME
    int min_reps = 20;
    double min_seconds = 0.5;
    double max_seconds_per_case = 20;  // a very slow variant stops early (still at least 3 samples)
    // > 0: the whole run's time; each case gets a share of what is left
    // (case_seconds). In the options a case is measured with: what was left.
    double budget_seconds = 0;
    std::string out_root = "bench-runs";
    int batch_images = 0;                 // > 0: time batches of this many images instead (bench_batch.h)
    std::string batch_size = "4096x2304";  // WIDTHxHEIGHT of each image of a batch
    std::string command_line;
    std::string images_dir;  // real images for the run's gallery (gallery.h); empty: none
    bool quiet = false;      // no progress on standard error (the results still go to standard output)
};

// Runs the benchmark; returns the run directory it wrote.
std::string run_bench(const BenchOptions &options);

}  // namespace filterlab
