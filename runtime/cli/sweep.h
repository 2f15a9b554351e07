// `filterlab sweep`: every built point of one schedule's space, checked
// against the reference and then timed with the bench's protocol, into a run
// directory in the bench's format plus sweep.json (the axes and the points),
// which `filterlab report` draws.
#pragma once

#include <string>
#include <vector>

#include "bench.h"

namespace filterlab::cli {

struct SweepOptions {
    std::string filter, schedule;  // schedule: the variant name of its default point, e.g. cuda_tile
    bool quick = false;            // the check's smaller matrix
    BenchOptions bench;            // sizes, parameters, repetitions, output folder
};

int sweep_schedule(SweepOptions options);

}  // namespace filterlab::cli
