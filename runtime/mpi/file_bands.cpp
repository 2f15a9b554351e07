#include "file_bands.h"

#include <mpi.h>

#include <array>
#include <memory>
#include <optional>

#include "bands.h"
#include "image_io.h"
#include "row_files.h"
#include "streamed_run.h"
#include "world.h"

namespace filterlab::mpi {
namespace {

// Rank 0's shape to every rank.
stream::FileShape broadcast(const stream::FileShape &shape) {
    std::array<int, 3> s{shape.width, shape.height, shape.channels};
    world().broadcast(s.data(), 3);
    return {s[0], s[1], s[2]};
}

// Every rank's phases, on rank 0.
std::vector<RankPhases> gather(const RankPhases &mine) {
    std::vector<RankPhases> ranks;
    for (const std::vector<double> &f : world().gather({mine.wall, mine.read, mine.upload, mine.kernel, mine.download,
                                                        mine.device_span, mine.write, mine.setup,
                                                        static_cast<double>(mine.bands), mine.peak_rss_mib})) {
        ranks.push_back({f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], static_cast<int>(f[8]), f[9]});
    }
    return ranks;
}

// Whether every rank runs on one machine (one page cache). Rows written
// through mapped windows are written back a page at a time: across nodes, a
// page two ranks share could lose one rank's bytes on a shared file system.
bool on_one_node() {
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int size = 0;
    MPI_Comm_size(node, &size);
    MPI_Comm_free(&node);
    int mine = size == world().size() ? 1 : 0, every = 0;
    MPI_Allreduce(&mine, &every, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return every == 1;
}

}  // namespace

RankPhases phases_of(const stream::StreamTimes &t) {
    return {t.wall,  t.read,  1e-3 * t.upload_ms, 1e-3 * t.kernel_ms, 1e-3 * t.download_ms, 1e-3 * t.device_span_ms,
            t.write, t.setup, t.bands, t.peak_rss_mib};
}

bool can_run_in_file_bands(const std::string &input, const std::string &output) {
    int fits = 0;
    const bool pnm_output = stream::is_pnm_output(output, 1) || stream::is_pnm_output(output, 3);
    if (world().root() && pnm_output && stream::is_binary_pnm(input)) {
        try {
            fits = stream::is_pnm_output(output, stream::PnmRowReader(input).shape().channels);
        } catch (const Error &) {  // the other path says why
        }
    }
    world().broadcast(&fits, 1);
    return fits != 0;
}

FileBandShapes run_file_in_bands(const Variant &variant, const std::string &input, const std::string &output,
                                 const ParamValues &params, int band_rows, stream::FileWrites writes,
                                 std::vector<RankPhases> &ranks) {
    const World &w = world();
    const FilterInfo &filter = filter_info(variant.filter);
    std::optional<stream::PnmRowReader> reader;
    stream::FileShape in_shape, out_shape;
    std::unique_ptr<stream::PnmRowWriter> owner;  // rank 0's: the temporary, renamed at the end
    std::string temporary;
    w.collective([&] {
        if (!w.root()) return;
        reader.emplace(input);
        in_shape = reader->shape();
        check_writable(output, in_shape.channels);  // before the work, as for one process
        const auto [ow, oh] = filter.output_size(in_shape.width, in_shape.height);
        owner = std::make_unique<stream::PnmRowWriter>(output, stream::FileShape{ow, oh, in_shape.channels});
        temporary = owner->temporary_path();
    });
    in_shape = broadcast(in_shape);
    w.broadcast(temporary);
    const auto [out_width, out_height] = filter.output_size(in_shape.width, in_shape.height);
    out_shape = {out_width, out_height, in_shape.channels};
    const Band me = split_image(filter, params, in_shape.width, in_shape.height, w.size()).bands[w.rank()];
    if (!on_one_node()) writes = stream::FileWrites::pwrite;

    stream::StreamTimes times;
    w.collective([&] {
        if (me.out_rows == 0) return;
        if (!reader) reader.emplace(input);
        std::unique_ptr<stream::PnmRowWriter> shared;
        if (!owner) shared = std::make_unique<stream::PnmRowWriter>(output, temporary, out_shape);
        (owner ? *owner : *shared).use(writes);
        stream::StreamOptions options;
        options.limits.band_rows = band_rows;
        options.limits.out_first = me.out_first;
        options.limits.out_end = me.out_first + me.out_rows;
        times = stream::run_streamed(variant, *reader, owner ? *owner : *shared, params, options);
        if (shared) shared->close();
    });
    w.collective([&] {
        if (w.root()) owner->commit();
    });
    ranks = gather(phases_of(times));
    return {in_shape.width, in_shape.height, in_shape.channels, out_width, out_height};
}

}  // namespace filterlab::mpi
