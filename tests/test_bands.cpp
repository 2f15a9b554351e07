// The bands of rows `mpirun filterlab run` splits an image into
// (runtime/mpi/bands.h): they cover the image, and each filter's reach is
// enough halo for a band's own rows to come out as in the whole image,
// which is what makes N ranks byte-identical to one. Checked with the
// references, without MPI.
#include <doctest/doctest.h>

#include <cstring>

#include "bands.h"
#include "filters.h"
#include "noise.h"

using namespace filterlab;

namespace {

// The rows [first, end) of every plane of `image`.
Image rows_of(const Image &image, int first, int end) {
    Image band(image.width(), end - first, image.channels());
    for (int c = 0; c < image.channels(); c++)
        for (int y = first; y < end; y++) std::memcpy(band.row(y - first, c), image.row(y, c), image.width());
    return band;
}

}  // namespace

TEST_CASE("bands partition the output rows, own the input rows once, and reach no further than the image") {
    for (int height : {1, 2, 3, 7, 64, 101})
        for (int scale : {1, 2})
            for (int reach : {0, 1, 2, 7, 13})
                for (int ranks : {1, 2, 3, 5, 8}) {
                    const int out_height = height / scale;
                    if (out_height == 0) continue;
                    const auto bands = mpi::split_rows(height, out_height, scale, reach, ranks);
                    INFO("height ", height, " scale ", scale, " reach ", reach, " ranks ", ranks);
                    REQUIRE(static_cast<int>(bands.size()) == ranks);
                    int next_out = 0, next_own = 0;
                    for (const mpi::Band &b : bands) {
                        if (b.out_rows == 0) continue;
                        CHECK(b.out_first == next_out);
                        CHECK(b.own_first == next_own);
                        CHECK(b.in_first % scale == 0);
                        CHECK(b.in_first == std::max(0, b.own_first - (reach + scale - 1) / scale * scale));
                        CHECK(b.in_end >= std::min(height, b.own_end + reach));
                        CHECK(b.keep_first() >= 0);
                        next_out += b.out_rows;
                        next_own = b.own_end;
                    }
                    CHECK(next_out == out_height);
                    CHECK(next_own == height);
                }
}

TEST_CASE("every filter's bands, filtered alone with its reach as halo, give the whole image's rows") {
    // Bands split rows: columns and planes only multiply the reference's work,
    // which a window of thousands of samples an output (NL-means's) makes
    // minutes under the sanitizers. Such a window gets a narrow gray image.
    const Image wide = random_image(23, 41, 3, 5), narrow = random_image(5, 41, 1, 5);
    for (const FilterInfo &f : all_filters()) {
        std::vector<ParamValues> sets = f.check_params.empty() ? std::vector<ParamValues>{{}} : f.check_params;
        for (const ParamValues &overlay : sets) {
            ParamValues params = f.defaults();
            for (auto &[name, value] : overlay) params[name] = value;
            const bool large_window = f.work_per_sample && f.work_per_sample(params) > 1000;
            const Image &image = large_window ? narrow : wide;
            const Image whole = f.reference(image, params);
            const int scale = image.height() / whole.height();
            for (int ranks : {2, 3, 6}) {
                INFO(f.name, " ", format_params(params), " over ", ranks, " bands");
                for (const mpi::Band &b : mpi::split_rows(image.height(), whole.height(), scale, f.reach(params), ranks)) {
                    if (b.out_rows == 0) continue;
                    const Image out = f.reference(rows_of(image, b.in_first, b.in_end), params);
                    const Image expected = rows_of(whole, b.out_first, b.out_first + b.out_rows);
                    const Image kept = rows_of(out, b.keep_first(), b.keep_first() + b.out_rows);
                    CHECK(kept.samples() == expected.samples());
                }
            }
        }
    }
}
