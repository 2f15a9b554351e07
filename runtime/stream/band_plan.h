// How one image is cut for streaming (stream/streamed_run.h): bands of rows,
// each read, filtered and written on its own, and, where a row is wider than
// a variant may take (kMaxSide), column tiles within a band. Pure arithmetic,
// tested without a GPU or a file.
#pragma once

#include <cstddef>
#include <vector>

#include "filters.h"

namespace filterlab::stream {

// A span of output positions and the input positions it is computed from:
// its own, plus the halo a stencil reads (FilterInfo::reach) on each side,
// clipped to the image. The same for rows (a band) and columns (a tile).
struct Span {
    int out_first = 0, out_count = 0;
    int in_first = 0, in_end = 0;
    int in_count() const { return in_end - in_first; }
};

// The output positions [out_first, out_end) in spans of at most `out_per_span`
// (the last ones evened out), each with `halo` inputs around its own
// `scale` x out ones, and its in_first a multiple of `align` (for 16-byte
// aligned device rows; a multiple of `scale` as well).
std::vector<Span> split_spans(int in_size, int out_first, int out_end, int scale, int halo, int out_per_span,
                              int align);

// Everything one streamed run needs to know of its image.
struct StreamPlan {
    int width = 0, height = 0, channels = 0;  // the input's
    int out_width = 0, out_height = 0;
    int scale = 1;              // input rows (and columns) per output row: 1, or 2 for 2x2 pooling
    std::vector<Span> bands;    // rows
    std::vector<Span> tiles;    // columns; one unless a row is too wide for a variant
    int max_band_in_rows() const;
    int max_tile_in_columns() const;
};

struct PlanLimits {
    // Input bytes a band aims at (whole rows; at least one output row).
    std::size_t band_bytes = 32u << 20;
    int band_rows = 0;  // output rows a band; 0: from band_bytes
    // The widest tile a variant is given (kMaxSide unless a test asks for less).
    int tile_width = 0;
    // The rank's share of the output rows; out_end < 0: to the last row.
    int out_first = 0, out_end = -1;
};

// Input rows (and columns) per output row: 2 for 2x2 pooling, else 1 (from
// the filter's output size, not from one image's, whose odd row would skew it).
int rows_per_output_row(const FilterInfo &filter);

// Throws Error when the filter's output would be empty.
StreamPlan plan_stream(const FilterInfo &filter, const ParamValues &params, int width, int height, int channels,
                       const PlanLimits &limits);

}  // namespace filterlab::stream
