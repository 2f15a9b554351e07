#include "run_results.h"

#include <fmt/format.h>
#include <fstream>

#include "cuda_support.h"
#include "machine.h"
#include "opencl_support.h"
#include "plugins.h"
#include "run_format.h"

namespace filterlab {

// The run's opening lines, and the copy roofline (GB/s; 0 without a GPU).
double measure_roofline(const BenchOptions &o, const cuda::Clocks &clocks_start) {
    const auto &gpu = cuda::gpu_info();
    double roofline = 0;
    if (gpu.available) {
        roofline = cuda::copy_bandwidth_gbps(std::size_t(1) << 30, 20);
        bench_say(o, "GPU {} ({} SMs, L2 {} MiB), clocks SM {} MHz / memory {} MHz\n", gpu.name, gpu.sm_count,
                  gpu.l2_bytes >> 20, clocks_start.sm_mhz, clocks_start.memory_mhz);
        bench_say(o, "copy roofline (1 GiB cudaMemcpy device to device, read + write): {:.0f} GB/s\n", roofline);
    } else {
        bench_say(o, "no GPU ({}): CUDA variants skipped\n", gpu.why_not);
    }
    const auto &cl = opencl::device_info();
    if (cl.available) {
        bench_say(o, "OpenCL device {} ({}, {}; driver {}), timed by the host clock between clFinish calls\n", cl.name,
                  cl.platform, cl.version, cl.driver);
    } else {
        bench_say(o, "no OpenCL device ({}): OpenCL variants skipped\n", cl.why_not);
    }
    bench_say(o, "CPU {}, {} Halide threads; commit {}\n", cpu_model(), halide_thread_count(), build_commit());
    for (const PluginStatus &p : load_plugins()) bench_say(o, "peer plugin {}: {}\n", p.name, p.detail);
    if (load_plugins().empty()) bench_say(o, "no peer plugins built (OpenCV absent at build time)\n");
    return roofline;
}

nlohmann::json run_context(nlohmann::json facts, const BenchOptions &o, double roofline, nlohmann::json transfers,
                           const cuda::Clocks &clocks_start) {
    nlohmann::json context = std::move(facts);
    context["format"] = kRunFormat;  // run_format.h: what `filterlab report` reads
    context["copy_roofline_gb_per_s"] = roofline;
    context["transfers"] = std::move(transfers);
    context["num_cpus"] = context["cpu"]["hardware_threads"];
    context["library_build_type"] = "release";
    close_run_context(context, o, clocks_start);
    return context;
}

void set_measures(BenchRow &row, const Stats &s, double bytes, double roofline) {
    const bool timed = row.timed();
    row.samples = s.samples;
    row.median_us = s.median, row.min_us = s.min, row.max_us = s.max, row.p25_us = s.p25, row.p75_us = s.p75;
    row.spread_pct = timed ? 100 * (s.p75 - s.p25) / s.median : 0;
    row.gb_per_s = timed ? bytes / (s.median * 1e3) : 0;
    row.roofline_pct = timed && roofline > 0 ? 100 * row.gb_per_s / roofline : 0;
}

namespace {

// Google Benchmark's aggregate rows for one case (after its iteration row),
// so that its tools (compare.py) can compare two runs: mean, median and
// stddev in microseconds, and the coefficient of variation.
std::vector<nlohmann::json> aggregate_rows(const std::string &name, const Stats &s) {
    auto row = [&](const char *aggregate, double value, const char *unit) {
        return nlohmann::json{{"name", name + "_" + aggregate},
                              {"run_name", name},
                              {"run_type", "aggregate"},
                              {"repetitions", s.samples},
                              {"threads", 1},
                              {"aggregate_name", aggregate},
                              {"aggregate_unit", unit},
                              {"iterations", s.samples},
                              {"real_time", value},
                              {"cpu_time", value},
                              {"time_unit", "us"}};
    };
    return {row("mean", s.mean, "time"), row("median", s.median, "time"), row("stddev", s.stddev, "time"),
            row("cv", s.mean > 0 ? s.stddev / s.mean : 0.0, "percentage")};
}

// The iteration row of a timed case in Google Benchmark's format, then its aggregates.
void add_benchmark_rows(nlohmann::json &benchmarks, const BenchRow &row, const Stats &stats) {
    const std::string name =
        fmt::format("{}/{}/{}x{}x{}/{}", row.filter, row.variant, row.width, row.height, row.channels, row.params);
    benchmarks.push_back({{"name", name},           {"run_name", name},
                          {"run_type", "iteration"}, {"repetitions", row.samples},
                          {"iterations", 1},         {"real_time", row.median_us},
                          {"cpu_time", row.median_us}, {"time_unit", "us"},
                          {"bytes_per_second", row.gb_per_s * 1e9}, {"min_us", row.min_us},
                          {"max_us", row.max_us},    {"p25_us", row.p25_us},
                          {"p75_us", row.p75_us},    {"roofline_pct", row.roofline_pct},
                          {"backend", row.backend},  {"kind", row.kind},
                          {"buffers", row.buffers},  {"threads", row.threads},
                          {"status", to_string(row.status)}});
    for (const auto &aggregate : aggregate_rows(name, stats)) benchmarks.push_back(aggregate);
}

std::string transfer_lines(const nlohmann::json &transfers) {
    std::string lines;
    for (auto &t : transfers) {
        lines += fmt::format(
            "transfers {}x{}x{} ({} bytes): host->device {:.1f} us pageable, {:.1f} us pinned; device->host {:.1f} us "
            "pageable, {:.1f} us pinned\n",
            t["width"].get<int>(), t["height"].get<int>(), t["channels"].get<int>(), t["bytes"].get<std::size_t>(),
            1e3 * t["h2d_pageable_ms"].get<double>(), 1e3 * t["h2d_pinned_ms"].get<double>(),
            1e3 * t["d2h_pageable_ms"].get<double>(), 1e3 * t["d2h_pinned_ms"].get<double>());
    }
    return lines;
}
}  // namespace

void write_run_results(const std::string &dir, const std::string &command_line, const std::vector<TimedRow> &rows,
                       const nlohmann::json &context) {
    std::ofstream csv(dir + "/" + kRunResultsCsv);
    csv << results_csv_header() << "\n";
    nlohmann::json benchmarks = nlohmann::json::array();
    std::string table = fmt::format("{:<9} {:<20} {:<5} {:<12} {:>11} {:>11} {:>8} {:>9} {:>8} {:>7}  {}\n", "filter",
                                    "variant", "back", "kind", "size", "median us", "spread%", "GB/s", "roof%",
                                    "samples", "status");
    const double roofline = context["copy_roofline_gb_per_s"].get<double>();
    for (const auto &[row, stats] : rows) {
        csv << to_csv_line(row) << "\n";
        table += fmt::format("{:<9} {:<20} {:<5} {:<12} {:>11} {:>11.2f} {:>8.1f} {:>9.1f} {:>8.1f} {:>7}  {}\n",
                             row.filter, row.variant, row.backend, row.kind,
                             fmt::format("{}x{}x{}", row.width, row.height, row.channels), row.median_us,
                             row.spread_pct, row.gb_per_s, row.roofline_pct, row.samples,
                             row.status == Status::ok ? "ok" : std::string(to_string(row.status)) + ": " + row.note);
        if (row.timed()) add_benchmark_rows(benchmarks, row, stats);
    }
    std::ofstream(dir + "/" + kRunResultsJson) << nlohmann::json{{"context", context}, {"benchmarks", benchmarks}}.dump(2)
                                               << "\n";
    const auto &start = context["gpu_clocks_start"], &end = context["gpu_clocks_end"];
    const std::string footer =
        cuda::gpu_info().available
            ? fmt::format("GPU clocks: start SM {} / memory {} MHz, end SM {} / memory {} MHz; roofline {:.0f} GB/s\n",
                          start["sm_mhz"].get<int>(), start["memory_mhz"].get<int>(), end["sm_mhz"].get<int>(),
                          end["memory_mhz"].get<int>(), roofline)
            : "";
    const std::string transfers = transfer_lines(context["transfers"]);
    std::ofstream(dir + "/table.txt") << command_line << "\n\n" << table << "\n" << transfers << footer;
    fmt::print("\n{}\n{}{}results: {}/{}, {}, table.txt\n", table, transfers, footer, dir, kRunResultsCsv, kRunResultsJson);
}

}  // namespace filterlab
