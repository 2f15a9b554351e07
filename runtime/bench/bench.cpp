#include "bench.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <unistd.h>

#include "bench_common.h"
#include "cuda_support.h"
#include "error.h"
#include "filters.h"
#include "gallery.h"
#include "halide_variant.h"
#include "harness.h"
#include "machine.h"
#include "noise.h"
#include "opencl_support.h"
#include "plugins.h"
#include "reference.h"
#include "registry.h"
#include "run_format.h"

namespace filterlab {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

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

struct Result {
    const Variant *variant;
    int width, height, channels;
    ParamValues params;
    Status status;
    std::string note;
    Stats stats;
    int buffers = 0;
    double bytes = 0;  // each input sample read once + each output sample written once
};

// Bounds of every timing path (CPU, CUDA, OpenCL on any device), so that a
// case's cost is bounded whatever the device: at most kMaxRotation buffer
// pairs (images under 2 x cache / 1024 a pair, ~100 KB on the H100, then
// stay in its cache: their times are the cache's, as the report's size column
// shows), and at most kMaxRunsPerSample runs in one sample, later samples
// going on around the rotation where the last one stopped.
constexpr int kMaxRotation = 1024;
constexpr int kMaxRunsPerSample = 64;

// How many input/output pairs a case rotates through: enough to hold twice
// the device's cache (so each run reads from memory, not from cache), at
// least 2, within `budget_bytes` and kMaxRotation.
int rotation_count(double per_pair, double cache_bytes, double budget_bytes) {
    const double wanted = std::max(std::ceil(2.0 * cache_bytes / per_pair) + 1, 2.0);
    const double fits = std::max(2.0, std::floor(budget_bytes / per_pair));
    return static_cast<int>(std::min({wanted, fits, double(kMaxRotation)}));
}

// The device images of that rotation (cuda:: or opencl::DeviceImage), the
// inputs uploaded, and one run of the variant over all of them.
template <typename DeviceImage>
struct Rotation {
    std::vector<std::unique_ptr<DeviceImage>> ins, outs;
    Rotation(const Image &input, std::pair<int, int> out_size, int count) {
        for (int k = 0; k < count; k++) {
            ins.push_back(std::make_unique<DeviceImage>(input.width(), input.height(), input.channels()));
            ins.back()->upload(input);
            outs.push_back(std::make_unique<DeviceImage>(out_size.first, out_size.second, input.channels()));
        }
    }
    void run_one(const Variant &v, const ParamValues &params, std::size_t k) const {
        v.run(ins[k % ins.size()]->view(), outs[k % ins.size()]->view(), params);
    }
};

// Runs timed per GPU sample, at least: the host's launch latency is then paid
// while earlier runs keep the GPU busy (see time_gpu), not inside a run's time.
constexpr int kMinTimedRuns = 8;

double pair_bytes(const Image &input, std::pair<int, int> out_size) {
    return double(input.size()) + double(out_size.first) * out_size.second * input.channels();
}

Stats time_gpu(const BenchOptions &o, const Variant &v, const Image &input, std::pair<int, int> out_size,
               const ParamValues &params, int &buffers) {
    buffers = rotation_count(pair_bytes(input, out_size), cuda::gpu_info().l2_bytes, 0.4 * cuda::free_memory_bytes());
    const Rotation<cuda::DeviceImage> rotation(input, out_size, buffers);
    cuda::EventTimer timer;
    const double one = probe_run(o, [&] {
        timer.start();
        rotation.run_one(v, params, 0);
        timer.stop_ms();
    });
    const int runs = runs_per_sample(o, one, std::max(kMinTimedRuns, std::min(buffers, kMaxRunsPerSample)));
    int next = 0;  // where the next sample starts in the rotation
    // A sample: the device time of `runs` back-to-back runs over the rotation,
    // divided by their count. An untimed run on the rotation's last pair goes
    // first, and the start event is queued behind it, so the GPU has work while
    // the host queues the timed ones: the time is the kernels' throughput, not
    // the launch latency of an idle GPU. Each pair is still used again only
    // after the others' traffic (over twice the L2) has gone through.
    return repeat(o, [&] {
        rotation.run_one(v, params, next + buffers - 1);
        timer.start();
        for (int k = 0; k < runs; k++) rotation.run_one(v, params, next + k);
        next = (next + runs) % buffers;
        return 1000.0 * timer.stop_ms() / runs;
    }, true);
}

// OpenCL has no events across a run of kernels from two owners (Halide's
// runtime enqueues its own): the host clock around the rotation, between two
// clFinish, over as many buffers as the CUDA path uses (the device's cache
// as the L2, at least the CUDA GPU's when there is one).
Stats time_opencl(const BenchOptions &o, const Variant &v, const Image &input, std::pair<int, int> out_size,
                  const ParamValues &params, int &buffers) {
    const auto &device = opencl::device_info();
    const double cache = std::max<double>(device.cache_bytes, cuda::gpu_info().l2_bytes);
    buffers = rotation_count(pair_bytes(input, out_size), cache,
                             0.4 * std::min<double>(device.memory_bytes, 8.0 * (1ull << 30)));
    const Rotation<opencl::DeviceImage> rotation(input, out_size, buffers);
    opencl::finish("before the probe");
    const double one = probe_run(o, [&] {
        rotation.run_one(v, params, 0);
        opencl::finish("after the probe");
    });
    const int runs = runs_per_sample(o, one, std::min(buffers, kMaxRunsPerSample));
    int next = 0;
    return repeat(o, [&] {
        opencl::finish("before timing");
        const auto start = Clock::now();
        for (int k = 0; k < runs; k++) rotation.run_one(v, params, next + k);
        opencl::finish("after timing");
        next = (next + runs) % buffers;
        return std::chrono::duration<double, std::micro>(Clock::now() - start).count() / runs;
    }, true);
}

Stats time_cpu(const BenchOptions &o, const Variant &v, const Image &input, std::pair<int, int> out_size,
               const ParamValues &params, int &buffers) {
    // Beyond the CPU's last-level cache (twice it, 128 MB at least), within 4 GiB
    // and kMaxRotation buffers: images under ~400² gray (1024 x 128 KiB) stay in the Xeon's L3.
    const double cache = std::max(64e6, last_level_cache_bytes());
    buffers = rotation_count(pair_bytes(input, out_size), cache, 4.0 * (1ull << 30));
    std::vector<Image> ins(buffers, input), outs(buffers, Image(out_size.first, out_size.second, input.channels()));
    std::optional<reference::Serial> serial;  // the baseline of the speed-ups is the serial reference
    if (v.kind == Kind::reference) serial.emplace();
    probe_run(o, [&] { v.run(ins[0].view(), outs[0].view(), params); });
    int k = 1 % buffers;
    return repeat(o, [&] {
        const auto start = Clock::now();
        v.run(ins[k].view(), outs[k].view(), params);
        const double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
        k = (k + 1) % buffers;
        return us;
    }, true);
}

// The image a variant is checked on before timing: the benchmark's own, or,
// where the reference would exceed its budget, a smaller square of the same
// channels whose reference takes a tenth of it (made once per side): `check`
// covers correctness over sizes; this guards the timed variant's parameters.
const Image &validation_input(const FilterInfo &f, const ParamValues &params, const Image &input,
                              std::map<int, Image> &smaller) {
    const double work = reference_work_per_sample(f, params) * input.channels();
    if (double(input.width()) * input.height() * work <= kBenchReferenceBudget) return input;
    int side = static_cast<int>(std::sqrt(kBenchReferenceBudget / 10 / work));
    side = std::max(side, f.min_side);
    auto it = smaller.find(side);
    if (it == smaller.end()) it = smaller.emplace(side, random_image(side, side, input.channels(), 99 + side)).first;
    return it->second;
}

// The copy roofline is measured on the CUDA GPU: it is an OpenCL variant's
// too only when its OpenCL device is a GPU (the same one on our machines).
bool on_the_roofline_device(const Variant &v) {
    return v.backend == Backend::cuda || (v.backend == Backend::opencl && opencl::device_info().is_gpu);
}

// A result as the schema's row: its throughput, share of the roofline and
// spread computed once, here.
BenchRow row_of(const Result &r, double roofline) {
    const bool timed = is_timed(r.status);
    const double gbps = timed ? r.bytes / (r.stats.median * 1e3) : 0;
    return {.filter = r.variant->filter,
            .variant = r.variant->name,
            .backend = to_string(r.variant->backend),
            .kind = to_string(r.variant->kind),
            .width = r.width,
            .height = r.height,
            .channels = r.channels,
            .params = format_params(r.params),
            .status = r.status,
            .samples = r.stats.samples,
            .buffers = r.buffers,
            .median_us = r.stats.median,
            .min_us = r.stats.min,
            .max_us = r.stats.max,
            .p25_us = r.stats.p25,
            .p75_us = r.stats.p75,
            .spread_pct = timed ? 100 * (r.stats.p75 - r.stats.p25) / r.stats.median : 0,
            .gb_per_s = gbps,
            .roofline_pct = timed && on_the_roofline_device(*r.variant) && roofline > 0 ? 100 * gbps / roofline : 0,
            .threads = r.variant->kind == Kind::reference ? 1
                       : r.variant->backend == Backend::cpu ? halide_thread_count()
                                                              : 0,
            .note = r.note};
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

// results.csv (the schema's writer), results.json (Google Benchmark's
// format), table.txt, and the table on stdout.
void write_results(const std::string &dir, const BenchOptions &o, const std::vector<Result> &results,
                   const nlohmann::json &context) {
    std::ofstream csv(dir + "/" + kRunResultsCsv);
    csv << results_csv_header() << "\n";
    nlohmann::json benchmarks = nlohmann::json::array();
    std::string table = fmt::format("{:<9} {:<20} {:<5} {:<12} {:>11} {:>11} {:>8} {:>9} {:>8} {:>7}  {}\n", "filter",
                                    "variant", "back", "kind", "size", "median us", "spread%", "GB/s", "roof%",
                                    "samples", "status");
    const double roofline = context["copy_roofline_gb_per_s"].get<double>();
    for (const Result &r : results) {
        const BenchRow row = row_of(r, roofline);
        csv << to_csv_line(row) << "\n";
        table += fmt::format("{:<9} {:<20} {:<5} {:<12} {:>11} {:>11.2f} {:>8.1f} {:>9.1f} {:>8.1f} {:>7}  {}\n",
                             row.filter, row.variant, row.backend, row.kind,
                             fmt::format("{}x{}x{}", row.width, row.height, row.channels), row.median_us,
                             row.spread_pct, row.gb_per_s, row.roofline_pct, row.samples,
                             row.status == Status::ok ? "ok" : std::string(to_string(row.status)) + ": " + row.note);
        if (row.timed()) add_benchmark_rows(benchmarks, row, r.stats);
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
    std::ofstream(dir + "/table.txt") << o.command_line << "\n\n" << table << "\n" << transfers << footer;
    fmt::print("\n{}\n{}{}results: {}/{}, {}, table.txt\n", table, transfers, footer, dir, kRunResultsCsv, kRunResultsJson);
}

// What the cases of one size and channel count share: the smaller inputs
// checked where the reference would be too slow, and the last reference per
// filter (it depends on the filter and its parameters only).
struct CaseCache {
    std::map<int, Image> validation_inputs;
    std::map<std::string, std::pair<ParamValues, Image>> references;
};

// One variant at one size: checked against the reference (a wrong variant is
// reported, never timed; a peer's other function is timed and said so), then
// timed.
Result measure_case(const BenchOptions &o, const Variant &v, const Image &input, CaseCache &cache) {
    const FilterInfo &f = filter_info(v.filter);
    Result r{&v, input.width(), input.height(), input.channels(), params_for(f, o.params), Status::ok, "", {}, 0, 0};
    bench_say(o, "{} {} {}x{}x{} {} ... ", v.filter, v.name, r.width, r.height, r.channels, format_params(r.params));
    const auto out_size = f.output_size(r.width, r.height);
    r.bytes = double(input.size()) + double(out_size.first) * out_size.second * r.channels;
    run_case(v, r.params, r.status, r.note, [&] {
        // The reference is the oracle of every timed result. Where it would take
        // too long at this size, the variant is checked on a smaller image of the
        // same channels (validation_input), and the note says so.
        const Image &checked = validation_input(f, r.params, input, cache.validation_inputs);
        if (checked.width() != input.width()) {
            r.note = fmt::format("checked at {}x{} (the reference would take too long at this size)", checked.width(),
                                 checked.height());
        }
        auto &ref = cache.references[v.filter];
        if (ref.second.size() == 0 || ref.first != r.params) ref = {r.params, f.reference(checked, r.params)};
        const auto check_start = Clock::now();
        const Image output = run_variant(v, checked, r.params);
        const double check_seconds = seconds_since(check_start);
        const Comparison cmp = compare_to_reference(f, ref.second, output);
        if (!cmp.equal) {
            r.status = v.computes_contract ? Status::wrong : Status::differs;
            r.note = v.computes_contract ? cmp.describe()
                                         : fmt::format("not the contract's function: {}; PSNR {:.1f} dB against the "
                                                       "reference",
                                                       cmp.describe(), psnr(ref.second, output));
        }
        if (r.status == Status::wrong) return;  // reported, never timed
        if (&checked == &input) check_budget(o, check_seconds);  // a run and its transfers: at least a run
        switch (v.backend) {
        case Backend::cuda: r.stats = time_gpu(o, v, input, out_size, r.params, r.buffers); break;
        case Backend::opencl: r.stats = time_opencl(o, v, input, out_size, r.params, r.buffers); break;
        case Backend::cpu: r.stats = time_cpu(o, v, input, out_size, r.params, r.buffers); break;
        }
    });
    if (is_timed(r.status)) {
        bench_say(o, "{:.1f} us{}\n", r.stats.median, r.status == Status::ok ? "" : " (" + r.note + ")");
    } else {
        bench_say(o, "{}: {}\n", to_string(r.status), r.note);
    }
    return r;
}

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

}  // namespace

std::string run_bench(const BenchOptions &o) {
    check_common_options(o);
    for (int s : o.sizes)
        if (s < 1 || s > 32768) throw Error(fmt::format("bench: size {} out of range 1..32768", s));
    for (int s : o.sizes)
        for (int c : o.channels) check_image_shape(s, s, c);

    const std::vector<const Variant *> chosen = chosen_variants(o);

    // Every parameter is validated before anything is measured or written.
    for (const Variant *v : chosen) params_for(filter_info(v->filter), o.params);
    NewRunDir run_dir(o.out_root);
    const std::string &dir = run_dir.path();
    nlohmann::json context = machine_facts();
    const auto &gpu = cuda::gpu_info();
    const cuda::Clocks clocks_start = gpu.available ? cuda::current_clocks() : cuda::Clocks{};
    const double roofline = measure_roofline(o, clocks_start);
    std::vector<Result> results;
    nlohmann::json transfers = nlohmann::json::array();
    std::size_t total = 0, done = 0;
    const auto started = Clock::now();
    // The pictures and histograms `filterlab report` shows (gallery.h), first:
    // the cases share what is left of a budget.
    bench_say(o, "{}\n", write_gallery(dir, chosen, [&](const FilterInfo &f) { return params_for(f, o.params); },
                                     o.images_dir));
    for (int s : o.sizes) total += o.channels.size() * chosen.size() * (s > 0);
    for (int size : o.sizes)
        for (int channels : o.channels) {
            const Image input = random_image(size, size, channels, 1234 + size + channels);
            if (gpu.available) {
                const auto t = cuda::transfer_times(input.size(), 10);
                transfers.push_back({{"width", size}, {"height", size}, {"channels", channels},
                                     {"bytes", input.size()}, {"h2d_pageable_ms", t.h2d_pageable},
                                     {"d2h_pageable_ms", t.d2h_pageable}, {"h2d_pinned_ms", t.h2d_pinned},
                                     {"d2h_pinned_ms", t.d2h_pinned}});
            }
            CaseCache cache;
            for (const Variant *v : chosen) {
                bench_say(o, "[{}/{}{}] ", done + 1, total, time_left(started, done, total));
                BenchOptions case_options = o;
                case_options.max_seconds_per_case = case_seconds(o, seconds_since(started), total - done);
                if (o.budget_seconds > 0) case_options.budget_seconds = std::max(1e-3, o.budget_seconds - seconds_since(started));
                done++;
                results.push_back(measure_case(case_options, *v, input, cache));
            }
        }

    if (o.budget_seconds > 0) {
        bench_say(o, "budget: {:.0f} s of {:.0f} s\n", seconds_since(started), o.budget_seconds);
        context["budget_seconds"] = o.budget_seconds;
    }
    nlohmann::json algorithms = nlohmann::json::object();  // each timed variant's algorithm, for the record
    for (const Variant *v : chosen) algorithms[v->filter + "/" + v->name] = v->algorithm;
    context["algorithms"] = algorithms;
    context["format"] = kRunFormat;  // run_format.h: what `filterlab report` reads
    context["copy_roofline_gb_per_s"] = roofline;
    context["transfers"] = transfers;
    context["num_cpus"] = context["cpu"]["hardware_threads"];
    context["library_build_type"] = "release";
    close_run_context(context, o, clocks_start);
    write_results(dir, o, results, context);
    return run_dir.keep();
}

}  // namespace filterlab
