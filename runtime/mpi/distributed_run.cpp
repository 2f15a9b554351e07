#include "distributed_run.h"

#include <mpi.h>

#include <array>
#include <cstring>
#include <vector>

#include "bands.h"
#include "harness.h"
#include "world.h"

namespace filterlab::mpi {
namespace {

// Counts and displacements, in samples of one plane, of each rank's rows
// [first(b), end(b)) of a plane `width` samples wide.
template <typename First, typename End>
std::array<std::vector<int>, 2> layout(const std::vector<Band> &bands, int width, First first, End end) {
    std::array<std::vector<int>, 2> counts_displs;
    for (const Band &b : bands) {
        counts_displs[0].push_back((end(b) - first(b)) * width);
        counts_displs[1].push_back(first(b) * width);
    }
    return counts_displs;
}

// The halo rows: every rank sends its first own rows up and its last own
// rows down, as many as the neighbour's band reaches into it.
void exchange_halos(const std::vector<Band> &bands, Image &band_image, int rank) {
    const Band &me = bands[rank];
    if (me.out_rows == 0) return;  // idle: no neighbour reaches into it (bands.h)
    const int width = band_image.width(), size = static_cast<int>(bands.size());
    const bool has_up = rank > 0 && me.out_rows > 0, has_down = rank + 1 < size && bands[rank + 1].out_rows > 0;
    const int up = has_up ? rank - 1 : MPI_PROC_NULL, down = has_down ? rank + 1 : MPI_PROC_NULL;
    const int send_up = has_up ? bands[rank - 1].in_end - bands[rank - 1].own_end : 0;
    const int send_down = has_down ? bands[rank + 1].own_first - bands[rank + 1].in_first : 0;
    const int receive_up = me.own_first - me.in_first, receive_down = me.in_end - me.own_end;
    for (int c = 0; c < band_image.channels(); c++) {
        auto row = [&](int global_row) { return band_image.row(global_row - me.in_first, c); };
        MPI_Sendrecv(row(me.own_first), send_up * width, MPI_BYTE, up, 0, row(me.own_end), receive_down * width,
                     MPI_BYTE, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(row(me.own_end - send_down), send_down * width, MPI_BYTE, down, 1, row(me.in_first),
                     receive_up * width, MPI_BYTE, up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

}  // namespace

Image run_in_bands(const Variant &variant, const Image &input, const ParamValues &params, PhaseTimes &times) {
    const World &w = world();
    const FilterInfo &filter = filter_info(variant.filter);
    // Rank 0's image shape, to every rank.
    std::array<int, 3> shape{input.width(), input.height(), input.channels()};
    w.broadcast(shape.data(), 3);
    const auto [width, height, channels] = shape;
    const ImageBands split = split_image(filter, params, width, height, w.size());
    const std::vector<Band> &bands = split.bands;
    const int out_width = split.out_width, out_height = split.out_height;
    const Band &me = bands[w.rank()];
    times.bands = split.with_rows();

    PhaseClock clock;
    // An idle rank (more ranks than bands) holds no rows and sends none.
    Image band = me.out_rows > 0 ? Image(width, me.in_end - me.in_first, channels) : Image();
    const auto [own_counts, own_displs] = layout(bands, width, [](const Band &b) { return b.own_first; },
                                                 [](const Band &b) { return b.own_end; });
    for (int c = 0; c < channels; c++) {
        MPI_Scatterv(w.root() ? input.row(0, c) : nullptr, own_counts.data(), own_displs.data(), MPI_BYTE,
                     me.own_end > me.own_first ? band.row(me.own_first - me.in_first, c) : nullptr,
                     own_counts[w.rank()], MPI_BYTE, 0, MPI_COMM_WORLD);
    }
    clock.lap(times.scatter);
    exchange_halos(bands, band, w.rank());
    clock.lap(times.halo);

    Image band_output;
    w.collective([&] {
        if (me.out_rows > 0) band_output = run_variant(variant, band, params);
    });
    clock.lap(times.filter);

    Image output = w.root() ? Image(out_width, out_height, channels) : Image();
    const auto [out_counts, out_displs] = layout(bands, out_width, [](const Band &b) { return b.out_first; },
                                                 [](const Band &b) { return b.out_first + b.out_rows; });
    for (int c = 0; c < channels; c++) {
        MPI_Gatherv(me.out_rows > 0 ? band_output.row(me.keep_first(), c) : nullptr, out_counts[w.rank()], MPI_BYTE,
                    w.root() ? output.row(0, c) : nullptr, out_counts.data(), out_displs.data(), MPI_BYTE, 0,
                    MPI_COMM_WORLD);
    }
    clock.lap(times.gather);
    w.keep_slowest({&times.scatter, &times.halo, &times.filter, &times.gather});
    return output;
}

}  // namespace filterlab::mpi
