// `mpirun -n N filterlab bench --batch M`: the batch's images are spread over
// the ranks (one GPU each, or the CPU), each rank times its share with the
// bench's protocol, every variant starting on all ranks together; rank 0
// gathers what each rank measured and writes ranks.csv beside batch.csv.
#pragma once

#include <string>
#include <vector>

#include "batch_timing.h"
#include "bench_common.h"

namespace filterlab {

// This rank's share of `images`: how many, and the index of its first.
struct BatchShare {
    int images = 0, first = 0;
};
BatchShare batch_share(int images, int rank, int ranks);

// Collective. Per variant and rank: its images, kernel and end-to-end
// times; and the world's: the batch takes as long as its slowest rank, so
// the total throughput is all images over that time. Written by rank 0 to
// <dir>/ranks.csv and returned as lines for table.txt and the terminal.
std::string gather_rank_results(const std::string &dir, const BatchShape &share, int total_images,
                                const std::vector<BatchResult> &results);

}  // namespace filterlab
