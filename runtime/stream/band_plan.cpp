#include "band_plan.h"

#include <algorithm>
#include <string>

#include "error.h"
#include "image.h"

namespace filterlab::stream {
namespace {

int round_up(int value, int step) { return (value + step - 1) / step * step; }

}  // namespace

std::vector<Span> split_spans(int in_size, int out_first, int out_end, int scale, int halo, int out_per_span,
                              int align) {
    std::vector<Span> spans;
    const int total = out_end - out_first;
    if (total <= 0) return spans;
    const int count = (total + out_per_span - 1) / out_per_span;
    for (int i = 0; i < count; i++) {
        Span s;
        s.out_first = out_first + static_cast<int>(static_cast<long long>(total) * i / count);
        const int end = out_first + static_cast<int>(static_cast<long long>(total) * (i + 1) / count);
        s.out_count = end - s.out_first;
        // The input rows below the last output row (an odd row pooling
        // drops) are never read; the halo is whole multiples of scale.
        const int step = std::max(align, scale);
        s.in_first = std::max(0, s.out_first * scale - halo) / step * step;
        s.in_end = std::min(in_size, end * scale + halo);
        spans.push_back(s);
    }
    return spans;
}

int rows_per_output_row(const FilterInfo &filter) { return filter.output_size(4, 4).second == 2 ? 2 : 1; }

int StreamPlan::max_band_in_rows() const {
    int rows = 0;
    for (const Span &b : bands) rows = std::max(rows, b.in_count());
    return rows;
}

int StreamPlan::max_tile_in_columns() const {
    int columns = 0;
    for (const Span &t : tiles) columns = std::max(columns, t.in_count());
    return columns;
}

StreamPlan plan_stream(const FilterInfo &filter, const ParamValues &params, int width, int height, int channels,
                       const PlanLimits &limits) {
    StreamPlan plan;
    plan.width = width;
    plan.height = height;
    plan.channels = channels;
    std::tie(plan.out_width, plan.out_height) = filter.output_size(width, height);
    if (plan.out_width < 1 || plan.out_height < 1) {
        throw Error(filter.name + " of a " + std::to_string(width) + "x" + std::to_string(height) +
                    " image is empty");
    }
    plan.scale = rows_per_output_row(filter);
    const int halo = round_up(filter.reach(params), plan.scale);

    // Columns: one tile when a row fits a variant; else tiles whose input,
    // halos included, does. Tiles start on 64-column boundaries (the device
    // rows' 16-byte alignment, and even for pooling).
    const int tile_width = limits.tile_width > 0 ? limits.tile_width : static_cast<int>(kMaxSide);
    if (width <= tile_width) {
        plan.tiles.push_back({0, plan.out_width, 0, width});
    } else {
        const int own = (tile_width - 2 * halo - 64) / plan.scale;
        if (own < 1) throw Error("a tile of " + std::to_string(tile_width) + " columns cannot hold the filter's halo");
        plan.tiles = split_spans(width, 0, plan.out_width, plan.scale, halo, own, 64);
    }

    const int out_end = limits.out_end < 0 ? plan.out_height : std::min(limits.out_end, plan.out_height);
    const std::size_t row_bytes = static_cast<std::size_t>(width) * channels * plan.scale;
    int band_rows = limits.band_rows;
    if (band_rows <= 0) band_rows = static_cast<int>(std::max<std::size_t>(1, limits.band_bytes / row_bytes));
    // A band's tile is an image a variant takes (at most kMaxSide rows), and
    // the band's planes, whole rows wide, are addressed with 32-bit strides:
    // at most kMaxSamples samples.
    const long long row_samples = static_cast<long long>(width) * channels;
    const long long most_rows = std::min<long long>(kMaxSide, kMaxSamples / row_samples) - 2 * halo - plan.scale;
    if (most_rows < plan.scale) {
        throw Error(filter.name + ": rows of " + std::to_string(width) + "x" + std::to_string(channels) +
                    " samples are too wide for a band of the filter's " + std::to_string(2 * halo + 1) + " rows");
    }
    band_rows = static_cast<int>(std::min<long long>(band_rows, most_rows / plan.scale));
    plan.bands = split_spans(height, std::max(0, limits.out_first), out_end, plan.scale, halo, band_rows, 1);
    return plan;
}

}  // namespace filterlab::stream
