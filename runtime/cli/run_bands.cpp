#include "run_bands.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>

#include "file_bands.h"
#include "harness.h"
#include "image_io.h"
#include "stream_files.h"
#include "row_files.h"
#include "streamed_run.h"
#include "world.h"

namespace filterlab::cli {
namespace {

constexpr const char *kStdio = "-";

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void print_summary(const Variant &v, const ParamValues &params, const RunOptions &o, const mpi::FileBandShapes &s,
                   double ms, const std::string &how) {
    fmt::print("{}/{} ({}, {}) {}: {}x{}x{} -> {} {}x{}x{} in {:.2f} ms (reading and writing the files included; {})\n",
               v.filter, v.name, to_string(v.backend), to_string(v.kind), format_params(params), s.width, s.height,
               s.channels, o.output, s.out_width, s.out_height, s.channels, ms, how);
}

// One line of phases: the host threads' busy seconds, the device's
// milliseconds (a CPU variant: its filter's).
std::string phases_line(const mpi::RankPhases &p, Backend backend) {
    if (backend == Backend::cpu) {
        return fmt::format("read {:.3f} s, filter {:.3f} s, write {:.3f} s, {} bands, {:.3f} s in all (setup {:.3f} s)",
                           p.read, p.kernel, p.write, p.bands, p.wall, p.setup);
    }
    return fmt::format("read {:.3f} s, upload {:.2f} ms, kernel {:.2f} ms, download {:.2f} ms (device first to last "
                       "{:.2f} ms), write {:.3f} s, {} bands, {:.3f} s in all (setup {:.3f} s)",
                       p.read, 1e3 * p.upload, 1e3 * p.kernel, 1e3 * p.download, 1e3 * p.device_span, p.write,
                       p.bands, p.wall, p.setup);
}

}  // namespace

bool runs_in_bands(const RunOptions &o, const Variant &variant) {
    if (o.whole_image || o.input == kStdio || o.output == kStdio || !o.noise.empty() || !o.noisy_output.empty()) {
        return false;
    }
    if (variant.backend != Backend::cpu && variant.backend != Backend::cuda) return false;
    // Ranks read and write PGM/PPM rows by offset; one process may also read
    // and write PNG rows in order.
    if (mpi::world().distributed() || stream::is_binary_pnm(o.input)) {
        return (!mpi::world().distributed() && stream::is_png_output(o.output)) ||
               mpi::can_run_in_file_bands(o.input, o.output);
    }
    if (!codecs::is_sequential_png(o.input)) return false;
    if (stream::is_png_output(o.output)) return true;
    try {  // a PGM/PPM output that holds its channels; else the whole-image path says why
        return stream::is_pnm_output(o.output, stream::PngRowReader(o.input).shape().channels);
    } catch (const Error &) {
        return false;
    }
}

int run_streamed_file(const RunOptions &o, const Variant &variant, const ParamValues &params) {
    const auto start = std::chrono::steady_clock::now();
    const stream::InputFile reader(o.input);
    const stream::FileShape in = reader.shape();
    std::vector<std::string> notices = reader.notices(o.input);
    print_notices(notices);
    check_can_run(variant, params, in.width, in.height, in.channels);  // before an output exists
    check_writable(o.output, in.channels);
    const auto [out_width, out_height] = filter_info(variant.filter).output_size(in.width, in.height);
    const stream::OutputFile output(o.output, {out_width, out_height, in.channels},
                                    o.pwrite ? stream::FileWrites::pwrite : stream::FileWrites::mapped);
    stream::StreamOptions options;
    options.limits.band_rows = o.band_rows;
    options.gpus = o.gpus;
    const stream::StreamTimes t = stream::run_streamed(variant, reader.source(), output.sink(), params, options);
    output.commit();
    if (o.quiet) return kExitOk;
    const double ms = ms_since(start);
    print_summary(variant, params, o, {in.width, in.height, in.channels, out_width, out_height}, ms,
                  fmt::format("streamed in {} bands{}{}", t.bands, t.tiles > 1 ? fmt::format(" of {} tiles", t.tiles) : "",
                              t.gpus > 1 ? fmt::format(" over {} GPUs", t.gpus) : ""));
    fmt::print("phases: {}; {:.1f} MiB of host staging, peak RSS {:.1f} MiB\n",
               phases_line(mpi::phases_of(t), variant.backend), t.staging_bytes / 1048576.0, t.peak_rss_mib);
    return kExitOk;
}

int run_file_over_ranks(const RunOptions &o, const Variant &variant, const ParamValues &params) {
    const auto start = std::chrono::steady_clock::now();
    std::vector<mpi::RankPhases> ranks;
    const mpi::FileBandShapes s = mpi::run_file_in_bands(variant, o.input, o.output, params, o.band_rows,
                                                           o.pwrite ? stream::FileWrites::pwrite : stream::FileWrites::mapped, ranks);
    if (!mpi::world().root() || o.quiet) return kExitOk;
    print_summary(variant, params, o, s, ms_since(start),
                  fmt::format("over {} ranks, each streaming its own rows of the files", ranks.size()));
    for (std::size_t r = 0; r < ranks.size(); r++) {
        fmt::print("rank {}: {}; peak RSS {:.1f} MiB\n", r, phases_line(ranks[r], variant.backend), ranks[r].peak_rss_mib);
    }
    return kExitOk;
}

}  // namespace filterlab::cli
