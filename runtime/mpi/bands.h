// How one image is split into bands of rows over ranks (`mpirun filterlab
// run`): pure arithmetic, tested without MPI.
#pragma once

#include <vector>

#include "filters.h"

namespace filterlab::mpi {

// One rank's share. The output rows [out_first, out_first + out_rows) are
// its own; it computes them from the input rows [own_first, own_end) it is
// sent, plus halo rows above and below, [in_first, in_end) in all, which
// its neighbours send it. A rank with out_rows == 0 is idle.
struct Band {
    int out_first = 0, out_rows = 0;
    int own_first = 0, own_end = 0;
    int in_first = 0, in_end = 0;
    // The band's own output starts at this row of what the filter makes
    // from rows [in_first, in_end).
    int keep_first() const;
    int scale = 1;
};

// `scale` input rows make one output row (1, or 2 for 2x2 pooling; the
// output has in_height / scale rows); `reach` is how many rows beyond its
// own an output row reads (FilterInfo::reach). The output rows are spread
// evenly over at most `ranks` bands, each of at least `reach` own rows so
// that its halo comes from its two neighbours alone.
std::vector<Band> split_rows(int in_height, int out_height, int scale, int reach, int ranks);

// The bands of a width x height image under `filter` with `params`: its
// output size, the rows per output row and its reach, split over `ranks`.
struct ImageBands {
    int out_width = 0, out_height = 0;
    std::vector<Band> bands;
    int with_rows() const;  // bands that have output rows
};
ImageBands split_image(const FilterInfo &filter, const ParamValues &params, int width, int height, int ranks);

}  // namespace filterlab::mpi
