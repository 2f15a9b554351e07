#include "bands.h"

#include <algorithm>
#include <tuple>

#include "band_plan.h"

namespace filterlab::mpi {

int Band::keep_first() const { return out_first - in_first / scale; }

std::vector<Band> split_rows(int in_height, int out_height, int scale, int reach, int ranks) {
    // Halo rows in whole output rows, so that every band starts on a row
    // that begins an output row.
    const int halo = (reach + scale - 1) / scale * scale;
    const int min_out_rows = std::max(1, (halo + scale - 1) / scale);
    const int used = std::max(1, std::min(ranks, out_height / min_out_rows));
    std::vector<Band> bands(ranks);
    for (int r = 0; r < ranks; r++) {
        Band &b = bands[r];
        b.scale = scale;
        if (r >= used) {  // idle: an empty band at the bottom
            b.out_first = out_height;
            b.own_first = b.own_end = b.in_first = b.in_end = in_height;
            continue;
        }
        b.out_first = static_cast<int>(static_cast<long long>(out_height) * r / used);
        const int out_end = static_cast<int>(static_cast<long long>(out_height) * (r + 1) / used);
        b.out_rows = out_end - b.out_first;
        b.own_first = b.out_first * scale;
        // The last band owns the rows below the last output row too (an odd
        // row that 2x2 pooling drops), so that the bands cover the image.
        b.own_end = r == used - 1 ? in_height : out_end * scale;
        b.in_first = std::max(0, b.own_first - halo);
        b.in_end = std::min(in_height, b.own_end + halo);
    }
    return bands;
}

int ImageBands::with_rows() const {
    return static_cast<int>(std::count_if(bands.begin(), bands.end(), [](const Band &b) { return b.out_rows > 0; }));
}

ImageBands split_image(const FilterInfo &filter, const ParamValues &params, int width, int height, int ranks) {
    ImageBands split;
    std::tie(split.out_width, split.out_height) = filter.output_size(width, height);
    const int scale = stream::rows_per_output_row(filter);
    split.bands = split_rows(height, split.out_height, scale, filter.reach(params), ranks);
    return split;
}

}  // namespace filterlab::mpi
