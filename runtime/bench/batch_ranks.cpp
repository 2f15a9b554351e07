#include "batch_ranks.h"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>

#include "world.h"

namespace filterlab {
namespace {

// What each rank reports per result: its images, then per end-to-end phase
// the median (ms; 0 when not measured).
constexpr int kRankPhases[] = {Phase::kernel, Phase::total_pinned, Phase::total_streams};
constexpr std::size_t kValuesPerResult = 1 + std::size(kRankPhases);

}  // namespace

BatchShare batch_share(int images, int rank, int ranks) {
    const int base = images / ranks, extra = images % ranks;
    return {base + (rank < extra ? 1 : 0), rank * base + std::min(rank, extra)};
}

std::string gather_rank_results(const std::string &dir, const BatchShape &share, int total_images,
                                const std::vector<BatchResult> &results) {
    const mpi::World &world = mpi::world();
    std::vector<double> mine;
    for (const BatchResult &r : results) {
        mine.push_back(share.images);
        for (int p : kRankPhases) mine.push_back(r.ms[p].samples ? r.ms[p].median : 0.0);
    }
    const auto by_rank = world.gather(mine);
    if (!world.root()) return "";
    std::ofstream csv(dir + "/ranks.csv");
    csv << "filter,variant,backend,channels,rank,images,kernel_ms,total_pinned_ms,total_streams_ms\n";
    std::string lines = fmt::format("over {} ranks ({} images in all; each rank's share timed on its own device, all "
                                    "ranks together):\n",
                                    world.size(), total_images);
    for (std::size_t i = 0; i < results.size(); i++) {
        const BatchResult &r = results[i];
        double slowest[std::size(kRankPhases)] = {};
        for (int rank = 0; rank < world.size(); rank++) {
            const double *v = &by_rank[rank][i * kValuesPerResult];
            csv << fmt::format("{},{},{},{},{},{}", r.variant->filter, r.variant->name, to_string(r.variant->backend),
                               r.channels, rank, static_cast<int>(v[0]));
            for (std::size_t p = 0; p < std::size(kRankPhases); p++) {
                csv << fmt::format(",{:.6f}", v[1 + p]);
                slowest[p] = std::max(slowest[p], v[1 + p]);
            }
            csv << "\n";
        }
        // A GPU variant's batch ends when its outputs are back (pinned, end to
        // end); a CPU variant's, when its kernels are done.
        const bool end_to_end = slowest[1] > 0;
        const double ms = end_to_end ? slowest[1] : slowest[0];
        if (ms <= 0) continue;  // not measured
        lines += fmt::format("  {}/{} x{}: slowest rank {:.2f} ms {} -> {:.1f} images/s in total\n", r.variant->filter,
                             r.variant->name, r.channels, ms,
                             end_to_end ? fmt::format("pinned end to end ({:.2f} ms kernels)", slowest[0]) : "kernels",
                             total_images / (ms / 1e3));
    }
    return lines;
}

}  // namespace filterlab
