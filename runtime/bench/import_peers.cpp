#include "import_peers.h"

#include <fmt/format.h>
#include <fstream>
#include <vector>

#include "bench_common.h"
#include "bench_paths.h"
#include "cuda_support.h"
#include "error.h"
#include "filters.h"
#include "gallery.h"
#include "machine.h"
#include "run_results.h"

namespace filterlab {
namespace {

using json = nlohmann::json;

template <typename T>
T field(const json &line, const char *key) {
    if (!line.contains(key)) throw Error(fmt::format("no \"{}\"", key));
    try {
        return line.at(key).get<T>();
    } catch (const json::exception &) {
        throw Error(fmt::format("\"{}\" is {}, not of its type", key, line.at(key).dump()));
    }
}

// One case as the schema's row: a peer of its filter's first algorithm (as the
// registry gives a peer that names none), its parameters parsed by the
// filter's strict parser, its measures from the bench's statistics.
TimedRow row_of_case(const json &line, double roofline) {
    const FilterInfo &f = filter_info(field<std::string>(line, "filter"));
    BenchRow row{.filter = f.name,
                 .variant = field<std::string>(line, "variant"),
                 .backend = field<std::string>(line, "backend"),
                 .kind = "peer",
                 .origin = Origin::peer,
                 .algorithm = f.algorithms.front().first,
                 .point = "",
                 .path = "",
                 .width = field<int>(line, "width"),
                 .height = field<int>(line, "height"),
                 .channels = field<int>(line, "channels"),
                 .params = format_params(f.parse_params(field<std::vector<std::string>>(line, "params"))),
                 .status = parse_status(field<std::string>(line, "status")),
                 .samples = 0,
                 .buffers = field<int>(line, "buffers"),
                 .threads = field<int>(line, "threads"),
                 .note = field<std::string>(line, "note")};
    if (row.variant.empty()) throw Error("an empty variant name");
    if (row.backend != "cpu" && row.backend != "cuda" && row.backend != "opencl")
        throw Error("backend must be cpu, cuda or opencl, got " + row.backend);
    check_image_shape(row.width, row.height, row.channels);
    const std::vector<double> samples = field<std::vector<double>>(line, "samples_us");
    Stats stats;
    if (row.timed()) {
        if (samples.empty()) throw Error(fmt::format("status {} with no samples", to_string(row.status)));
        for (double s : samples)
            if (!(s > 0)) throw Error(fmt::format("a sample of {} us", s));
        stats = summarise(samples);
    }
    const auto out = f.output_size(row.width, row.height);
    const double bytes = (double(row.width) * row.height + double(out.first) * out.second) * row.channels;
    set_measures(row, stats, bytes, row.backend == "cuda" ? roofline : 0);
    return {row, stats};
}

// The cases of the samples file, and its context lines merged into `extra`.
std::vector<TimedRow> read_samples(const std::string &path, double roofline, json &extra) {
    std::ifstream in(path);
    if (!in) throw Error(path + ": cannot read the samples file");
    std::vector<TimedRow> rows;
    std::string text;
    for (int number = 1; std::getline(in, text); number++) {
        if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
        try {
            const json line = json::parse(text);
            if (!line.is_object()) throw Error("not a JSON object");
            if (line.contains("context")) extra.update(field<json>(line, "context"));
            else rows.push_back(row_of_case(line, roofline));
        } catch (const json::exception &e) {
            throw Error(fmt::format("{} line {}: not JSON ({})", path, number, e.what()));
        } catch (const Error &e) {
            throw Error(fmt::format("{} line {}: {}", path, number, e.what()));
        }
    }
    if (rows.empty()) throw Error(path + ": no cases");
    return rows;
}

}  // namespace

std::string import_peers(const ImportPeersOptions &o) {
    BenchOptions bench;
    bench.out_root = o.out_root, bench.command_line = o.command_line, bench.quiet = o.quiet;
    const json facts = machine_facts();
    const cuda::Clocks clocks_start = cuda::gpu_info().available ? cuda::current_clocks() : cuda::Clocks{};
    const double roofline = measure_roofline(bench, clocks_start);
    json extra = json::object();
    const std::vector<TimedRow> rows = read_samples(o.samples, roofline, extra);  // before a directory is made
    NewRunDir run_dir(o.out_root, "peers-");
    write_no_gallery(run_dir.path(), "peer timings imported: no pictures");
    json context = run_context(facts, bench, roofline, json::array(), clocks_start);
    context.update(extra);
    write_run_results(run_dir.path(), o.command_line, rows, context);
    return run_dir.keep();
}

json peers_timing_protocol() { return timing_protocol_json(BenchOptions{}); }

}  // namespace filterlab
