// Sizes both band workers derive from a plan (band_workers.cpp,
// cuda_band_worker.cpp): private to runtime/stream.
#pragma once

#include <memory>

#include "band_plan.h"
#include "band_workers.h"

namespace filterlab::stream {

// The variant's output rows for a band of `in_rows` input rows.
inline int band_out_rows(const FilterInfo &filter, const StreamPlan &plan, int in_rows) {
    return filter.output_size(plan.tiles.front().in_count(), in_rows).second;
}

// The variant's whole output of the largest band, and of the widest tile.
struct Extents {
    int max_in_rows = 0, max_out_rows = 0, max_tile_out = 0, max_kept_rows = 0;
    Extents(const FilterInfo &filter, const StreamPlan &plan) {
        max_in_rows = plan.max_band_in_rows();
        max_out_rows = band_out_rows(filter, plan, max_in_rows);
        max_tile_out = filter.output_size(plan.max_tile_in_columns(), max_in_rows).first;
        for (const Span &b : plan.bands) max_kept_rows = std::max(max_kept_rows, b.out_count);
    }
};

// The first output row of a band's variant output that the band keeps (or,
// for a tile, the first output column).
inline int kept_from(const StreamPlan &plan, const Span &span) { return span.out_first - span.in_first / plan.scale; }

std::unique_ptr<BandWorker> make_cuda_band_worker(const Variant &variant, const ParamValues &params,
                                                  const StreamPlan &plan, int slots, int devices);

}  // namespace filterlab::stream
