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
#include "plugins.h"
#include "registry.h"
#include "run_format.h"

namespace filterlab {
namespace {

using Clock = std::chrono::steady_clock;

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
    std::string status;  // ok, wrong, error, skipped
    std::string note;
    Stats stats;
    int buffers = 0;
    double bytes = 0;  // each input sample read once + each output sample written once
};

Stats time_gpu(const BenchOptions &o, const Variant &v, const Image &input, std::pair<int, int> out_size,
               const ParamValues &params, int &buffers) {
    const auto &gpu = cuda::gpu_info();
    const double per_pair = double(input.size()) + double(out_size.first) * out_size.second * input.channels();
    buffers = static_cast<int>(std::ceil(2.0 * gpu.l2_bytes / per_pair)) + 1;
    buffers = std::max(buffers, 2);
    const auto budget = static_cast<std::size_t>(0.4 * cuda::free_memory_bytes());
    buffers = std::min<int>(buffers, std::max<std::size_t>(2, budget / static_cast<std::size_t>(per_pair)));
    std::vector<std::unique_ptr<cuda::DeviceImage>> ins, outs;
    for (int k = 0; k < buffers; k++) {
        ins.push_back(std::make_unique<cuda::DeviceImage>(input.width(), input.height(), input.channels()));
        ins.back()->upload(input);
        outs.push_back(std::make_unique<cuda::DeviceImage>(out_size.first, out_size.second, input.channels()));
    }
    cuda::EventTimer timer;
    return repeat(o, [&] {
        timer.start();
        for (int k = 0; k < buffers; k++) v.run(ins[k]->view(), outs[k]->view(), params);
        return 1000.0 * timer.stop_ms() / buffers;
    });
}

Stats time_cpu(const BenchOptions &o, const Variant &v, const Image &input, std::pair<int, int> out_size,
               const ParamValues &params, int &buffers) {
    const double per_pair = double(input.size()) + double(out_size.first) * out_size.second * input.channels();
    buffers = std::clamp(static_cast<int>(std::ceil(128e6 / per_pair)), 2, 1024);  // 128 MB: beyond the CPU's caches
    std::vector<Image> ins(buffers, input), outs(buffers, Image(out_size.first, out_size.second, input.channels()));
    int k = 0;
    return repeat(o, [&] {
        const auto start = Clock::now();
        v.run(ins[k].view(), outs[k].view(), params);
        const double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
        k = (k + 1) % buffers;
        return us;
    });
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
    double roofline = 0;
    if (gpu.available) {
        roofline = cuda::copy_bandwidth_gbps(std::size_t(1) << 30, 20);
        bench_say(o, "GPU {} ({} SMs, L2 {} MiB), clocks SM {} MHz / memory {} MHz\n", gpu.name, gpu.sm_count,
                   gpu.l2_bytes >> 20, clocks_start.sm_mhz, clocks_start.memory_mhz);
        bench_say(o, "copy roofline (1 GiB cudaMemcpy device to device, read + write): {:.0f} GB/s\n", roofline);
    } else {
        bench_say(o, "no GPU ({}): CUDA variants skipped\n", gpu.why_not);
    }
    bench_say(o, "CPU {}, {} Halide threads; commit {}\n", cpu_model(), halide_thread_count(), build_commit());
    for (const PluginStatus &p : load_plugins()) bench_say(o, "peer plugin {}: {}\n", p.name, p.detail);
    if (load_plugins().empty()) bench_say(o, "no peer plugins built (OpenCV absent at build time)\n");

    std::vector<Result> results;
    nlohmann::json transfers = nlohmann::json::array();
    std::size_t total = 0, done = 0;
    const auto started = Clock::now();
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
            std::map<std::string, std::pair<ParamValues, Image>> references;
            std::map<int, Image> validation_inputs;
            for (const Variant *v : chosen) {
                const FilterInfo &f = filter_info(v->filter);
                Result r{v, size, size, channels, params_for(f, o.params), "ok", "", {}, 0, 0};
                bench_say(o, "[{}/{}{}] {} {} {}x{}x{} {} ... ", done + 1, total, time_left(started, done, total), v->filter, v->name, size, size, channels,
                           format_params(r.params));
                done++;
                const auto out_size = f.output_size(size, size);
                r.bytes = double(input.size()) + double(out_size.first) * out_size.second * channels;
                run_case(*v, r.params, r.status, r.note, [&] {
                    // The reference is the oracle of every timed result. Where it would take
                    // too long at this size, the variant is checked on a smaller image of the
                    // same channels (validation_input), and the note says so.
                    const Image &checked = validation_input(f, r.params, input, validation_inputs);
                    if (checked.width() != input.width()) {
                        r.note = fmt::format("checked at {}x{} (the reference would take too long at this size)",
                                             checked.width(), checked.height());
                    }
                    // Within one size and channel count, `checked` depends on the filter and
                    // its parameters only: so does its reference.
                    auto &ref = references[v->filter];
                    if (ref.second.size() == 0 || ref.first != r.params) ref = {r.params, f.reference(checked, r.params)};
                    const Image output = run_variant(*v, checked, r.params);
                    const Comparison cmp = compare_to_reference(f, ref.second, output);
                    if (!cmp.equal) {
                        r.status = "wrong";
                        r.note = cmp.describe();
                    }
                    if (!cmp.equal && !v->computes_contract) {  // a peer's other function: timed, and said so
                        r.status = "differs";
                        r.note = fmt::format("not the contract's function: {}; PSNR {:.1f} dB against the reference",
                                             cmp.describe(), psnr(ref.second, output));
                    }
                    if (r.status == "wrong") {
                        // a wrong variant is reported, never timed
                    } else if (v->backend == Backend::cuda) {
                        r.stats = time_gpu(o, *v, input, out_size, r.params, r.buffers);
                    } else {
                        r.stats = time_cpu(o, *v, input, out_size, r.params, r.buffers);
                    }
                });
                if (r.status == "ok" || r.status == "differs") {
                    bench_say(o, "{:.1f} us{}\n", r.stats.median, r.status == "ok" ? "" : " (" + r.note + ")");
                } else {
                    bench_say(o, "{}: {}\n", r.status, r.note);
                }
                results.push_back(r);
            }
        }
    const cuda::Clocks clocks_end = gpu.available ? cuda::current_clocks() : cuda::Clocks{};
    // The pictures and histograms `filterlab report` shows (gallery.h).
    bench_say(o, "{}\n", write_gallery(dir, chosen, [&](const FilterInfo &f) { return params_for(f, o.params); },
                                     o.images_dir));

    // Files: CSV, JSON in Google Benchmark's format, and the table.
    std::ofstream csv(dir + "/results.csv");
    csv << "filter,variant,backend,kind,width,height,channels,params,status,samples,buffers,median_us,min_us,"
           "max_us,p25_us,p75_us,spread_pct,gb_per_s,roofline_pct,threads,note\n";
    nlohmann::json benchmarks = nlohmann::json::array();
    std::string table = fmt::format("{:<9} {:<20} {:<5} {:<12} {:>11} {:>11} {:>8} {:>9} {:>8} {:>7}  {}\n", "filter",
                                    "variant", "back", "kind", "size", "median us", "spread%", "GB/s", "roof%",
                                    "samples", "status");
    for (const Result &r : results) {
        const bool ok = r.status == "ok" || r.status == "differs";
        const double gbps = ok ? r.bytes / (r.stats.median * 1e3) : 0;
        const double roof = ok && r.variant->backend == Backend::cuda && roofline > 0 ? 100 * gbps / roofline : 0;
        const double spread = ok ? 100 * (r.stats.p75 - r.stats.p25) / r.stats.median : 0;
        const int threads = r.variant->backend == Backend::cpu ? halide_thread_count() : 0;
        std::string note = r.note;
        std::replace(note.begin(), note.end(), ',', ';');
        csv << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{:.2f},{:.2f},{:.2f},{},{}\n",
                           r.variant->filter, r.variant->name, to_string(r.variant->backend),
                           to_string(r.variant->kind), r.width, r.height, r.channels, format_params(r.params),
                           r.status, r.stats.samples, r.buffers, r.stats.median, r.stats.min, r.stats.max,
                           r.stats.p25, r.stats.p75, spread, gbps, roof, threads, note);
        table += fmt::format("{:<9} {:<20} {:<5} {:<12} {:>11} {:>11.2f} {:>8.1f} {:>9.1f} {:>8.1f} {:>7}  {}\n",
                             r.variant->filter, r.variant->name, to_string(r.variant->backend),
                             to_string(r.variant->kind), fmt::format("{}x{}x{}", r.width, r.height, r.channels),
                             r.stats.median, spread, gbps, roof, r.stats.samples,
                             r.status == "ok" ? "ok" : r.status + ": " + r.note);
        if (!ok) continue;
        const std::string name = fmt::format("{}/{}/{}x{}x{}/{}", r.variant->filter, r.variant->name, r.width,
                                             r.height, r.channels, format_params(r.params));
        benchmarks.push_back({{"name", name},
                              {"run_name", name},
                              {"run_type", "iteration"},
                              {"repetitions", r.stats.samples},
                              {"iterations", 1},
                              {"real_time", r.stats.median},
                              {"cpu_time", r.stats.median},
                              {"time_unit", "us"},
                              {"bytes_per_second", gbps * 1e9},
                              {"min_us", r.stats.min},
                              {"max_us", r.stats.max},
                              {"p25_us", r.stats.p25},
                              {"p75_us", r.stats.p75},
                              {"roofline_pct", roof},
                              {"backend", to_string(r.variant->backend)},
                              {"kind", to_string(r.variant->kind)},
                              {"buffers", r.buffers},
                              {"threads", threads},
                              {"status", r.status}});
        for (const auto &row : aggregate_rows(name, r.stats)) benchmarks.push_back(row);
    }
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    context["host_name"] = host;
    context["command"] = o.command_line;
    context["format"] = kRunFormat;  // run_format.h: what `filterlab report` reads
    context["copy_roofline_gb_per_s"] = roofline;
    context["gpu_clocks_start"] = {{"sm_mhz", clocks_start.sm_mhz}, {"memory_mhz", clocks_start.memory_mhz}};
    context["gpu_clocks_end"] = {{"sm_mhz", clocks_end.sm_mhz}, {"memory_mhz", clocks_end.memory_mhz}};
    context["transfers"] = transfers;
    context["num_cpus"] = context["cpu"]["hardware_threads"];
    context["library_build_type"] = "release";
    std::ofstream(dir + "/results.json") << nlohmann::json{{"context", context}, {"benchmarks", benchmarks}}.dump(2)
                                         << "\n";
    std::string transfer_table;
    for (auto &t : transfers) {
        transfer_table += fmt::format(
            "transfers {}x{}x{} ({} bytes): host->device {:.1f} us pageable, {:.1f} us pinned; device->host {:.1f} us "
            "pageable, {:.1f} us pinned\n",
            t["width"].get<int>(), t["height"].get<int>(), t["channels"].get<int>(), t["bytes"].get<std::size_t>(),
            1e3 * t["h2d_pageable_ms"].get<double>(), 1e3 * t["h2d_pinned_ms"].get<double>(),
            1e3 * t["d2h_pageable_ms"].get<double>(), 1e3 * t["d2h_pinned_ms"].get<double>());
    }
    const std::string footer =
        gpu.available ? fmt::format("GPU clocks: start SM {} / memory {} MHz, end SM {} / memory {} MHz; roofline {:.0f} GB/s\n",
                                    clocks_start.sm_mhz, clocks_start.memory_mhz, clocks_end.sm_mhz,
                                    clocks_end.memory_mhz, roofline)
                      : "";
    std::ofstream(dir + "/table.txt") << o.command_line << "\n\n" << table << "\n" << transfer_table << footer;
    fmt::print("\n{}\n{}{}results: {}/results.csv, results.json, table.txt\n", table, transfer_table, footer, dir);
    return run_dir.keep();
}

}  // namespace filterlab
