#include "bench_batch.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "batch_timing.h"
#include "bench_common.h"
#include "cuda_support.h"
#include "error.h"
#include "halide_variant.h"
#include "machine.h"
#include "noise.h"
#include "registry.h"

namespace filterlab {
namespace {

// Room left on the GPU beyond the batch's images, for the CUDA context's and
// the pipelines' own allocations (Halide's intermediates, for instance).
constexpr std::size_t kGpuMarginBytes = std::size_t(512) << 20;

std::size_t available_host_memory() {
    std::ifstream meminfo("/proc/meminfo");
    std::string line;
    while (std::getline(meminfo, line)) {
        unsigned long long kib = 0;
        if (std::sscanf(line.c_str(), "MemAvailable: %llu kB", &kib) == 1) return kib * 1024;
    }
    return static_cast<std::size_t>(sysconf(_SC_AVPHYS_PAGES)) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

std::string mib(std::size_t bytes) { return fmt::format("{} MiB", (bytes + (1 << 20) - 1) >> 20); }

// Refuses, before anything is allocated, a batch that would not fit: on the
// host the inputs (planar, and interleaved until converted), the outputs
// (planar, interleaved while timing the conversion) and, for CUDA variants,
// their pinned copies; on the GPU every input and output at once.
void check_memory(const BatchShape &b, const std::vector<const Variant *> &chosen, int channels) {
    const std::size_t n = b.images, in = b.image_bytes(channels);
    std::size_t out = 0, device = 0;
    bool any_cuda = false;
    for (const Variant *v : chosen) {
        const BatchShape o = b.output_of(filter_info(v->filter));
        out = std::max(out, o.image_bytes(channels));
        if (v->backend != Backend::cuda || !v->why_unavailable().empty()) continue;
        any_cuda = true;
        device = std::max(device, n * (device_image_bytes(b, channels) + device_image_bytes(o, channels)));
    }
    const std::size_t host = n * (2 * in + 2 * out) + (any_cuda ? n * (in + out) : 0) + 4 * in;
    const std::size_t host_free = available_host_memory();
    const std::string what = fmt::format("a batch of {} images of {}x{}x{}", b.images, b.width, b.height, channels);
    if (host > host_free) {
        throw Error(fmt::format("bench: {} needs about {} of host memory, {} available", what, mib(host),
                                mib(host_free)));
    }
    if (!any_cuda) return;
    const std::size_t gpu_free = cuda::free_memory_bytes();
    if (device + kGpuMarginBytes > gpu_free) {
        throw Error(fmt::format("bench: {} needs {} of GPU memory (inputs and outputs) and {} of room, {} free", what,
                                mib(device), mib(kGpuMarginBytes), mib(gpu_free)));
    }
}

// The batch as files give it: N distinct random images, interleaved.
std::vector<std::vector<uint8_t>> random_interleaved(const BatchShape &b, int channels) {
    std::vector<std::vector<uint8_t>> images(b.images);
    for (int i = 0; i < b.images; i++) {
        SeededRandom random(1234 + 1000 * i + channels);
        std::vector<uint8_t> &bytes = images[i];
        bytes.resize(b.image_bytes(channels));
        for (std::size_t k = 0; k < bytes.size(); k += 8) {
            const uint64_t r = random.next();
            std::memcpy(bytes.data() + k, &r, std::min<std::size_t>(8, bytes.size() - k));
        }
    }
    return images;
}

Stats time_to_planar(const BenchOptions &o, const BatchShape &b, int channels,
                     const std::vector<std::vector<uint8_t>> &interleaved, std::vector<Image> &planar) {
    planar.resize(b.images);
    return repeat(o, [&] {
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < b.images; i++) planar[i] = from_interleaved(interleaved[i].data(), b.width, b.height, channels);
        return ms_since(start);
    });
}

Stats time_to_interleaved(const BenchOptions &o, const std::vector<Image> &planar) {
    std::vector<std::vector<uint8_t>> written(planar.size());
    return repeat(o, [&] {
        const auto start = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < planar.size(); i++) written[i] = to_interleaved(planar[i]);
        return ms_since(start);
    });
}

bool measured(const BatchResult &r) { return r.status == "ok" || r.status == "differs"; }

std::string cell(const Stats &s) { return s.samples ? fmt::format("{:.6f}", s.median) : ""; }

nlohmann::json stats_json(const Stats &s) {
    if (!s.samples) return nullptr;
    return {{"median_ms", s.median}, {"p25_ms", s.p25}, {"p75_ms", s.p75},
            {"min_ms", s.min},       {"max_ms", s.max}, {"samples", s.samples}};
}

// Megapixels (of input) per second for a batch taking `s` milliseconds.
double mp_per_s(const BatchShape &b, const Stats &s) {
    return s.samples ? double(b.images) * b.width * b.height / (s.median * 1e3) : 0;
}

void write_results(const std::string &dir, const BenchOptions &o, const BatchShape &b,
                   const std::vector<BatchResult> &results, nlohmann::json context) {
    std::ofstream csv(dir + "/batch.csv");
    csv << "filter,variant,backend,kind,images,width,height,channels,params,status";
    for (const char *phase : kPhaseNames) csv << "," << phase << "_ms";
    for (const char *phase : kPhaseNames) csv << "," << phase << "_p25_ms," << phase << "_p75_ms";
    csv << ",samples,per_image_ms,per_image_pinned_ms,mp_per_s,mp_per_s_pinned,threads,note\n";
    std::string table = fmt::format("{:<16} {:<20} {:<4} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8} "
                                    "{:>8} {:>8}  {}\n",
                                    "filter", "variant", "back", "to_planar", "to_interl", "h2d_page", "h2d_pin",
                                    "kernel", "d2h_page", "d2h_pin", "e2e_page", "e2e_pin", "ms/image", "MP/s",
                                    "MP/s e2e", "status");
    nlohmann::json rows = nlohmann::json::array();
    for (const BatchResult &r : results) {
        const Variant &v = *r.variant;
        const Stats &k = r.ms[Phase::kernel], &e2e = r.ms[Phase::total_pinned];
        const int threads = v.backend == Backend::cpu ? halide_thread_count() : 0;
        const std::string per_image = k.samples ? fmt::format("{:.6f}", k.median / b.images) : "";
        const std::string per_image_pinned = e2e.samples ? fmt::format("{:.6f}", e2e.median / b.images) : "";
        const std::string mp = k.samples ? fmt::format("{:.1f}", mp_per_s(b, k)) : "";
        const std::string mp_pinned = e2e.samples ? fmt::format("{:.1f}", mp_per_s(b, e2e)) : "";
        std::string note = r.note;
        std::replace(note.begin(), note.end(), ',', ';');
        csv << fmt::format("{},{},{},{},{},{},{},{},{},{}", v.filter, v.name, to_string(v.backend), to_string(v.kind),
                           b.images, b.width, b.height, r.channels, format_params(r.params), r.status);
        for (const Stats &s : r.ms) csv << "," << cell(s);
        for (const Stats &s : r.ms) csv << "," << (s.samples ? fmt::format("{:.6f},{:.6f}", s.p25, s.p75) : ",");
        csv << fmt::format(",{},{},{},{},{},{},{}\n", k.samples, per_image, per_image_pinned, mp, mp_pinned, threads,
                           note);

        auto shown = [](const Stats &s) { return s.samples ? fmt::format("{:.2f}", s.median) : "-"; };
        table += fmt::format("{:<16} {:<20} {:<4}", v.filter, v.name, to_string(v.backend));
        for (const Stats &s : r.ms) table += fmt::format(" {:>9}", shown(s));
        table += fmt::format(" {:>8} {:>8} {:>8}  {}\n", k.samples ? fmt::format("{:.3f}", k.median / b.images) : "-",
                             mp.empty() ? "-" : mp, mp_pinned.empty() ? "-" : mp_pinned,
                             r.status == "ok" ? "ok" : r.status + ": " + r.note);

        nlohmann::json phases;
        for (int p = 0; p < Phase::count; p++) phases[kPhaseNames[p]] = stats_json(r.ms[p]);
        rows.push_back({{"filter", v.filter}, {"variant", v.name}, {"backend", to_string(v.backend)},
                        {"kind", to_string(v.kind)}, {"images", b.images}, {"width", b.width},
                        {"height", b.height}, {"channels", r.channels}, {"params", r.params},
                        {"status", r.status}, {"note", r.note}, {"phases", phases}, {"threads", threads},
                        {"per_image_ms", k.samples ? nlohmann::json(k.median / b.images) : nullptr},
                        {"mp_per_s", k.samples ? nlohmann::json(mp_per_s(b, k)) : nullptr},
                        {"mp_per_s_pinned", e2e.samples ? nlohmann::json(mp_per_s(b, e2e)) : nullptr}});
    }
    context["batch"] = {{"images", b.images}, {"width", b.width}, {"height", b.height}, {"channels", o.channels}};
    std::ofstream(dir + "/batch.json") << nlohmann::json{{"context", context}, {"results", rows}}.dump(2) << "\n";
    const std::string legend = fmt::format(
        "milliseconds per batch of {} images of {}x{} (medians; quartiles in batch.csv). Conversions: host, one "
        "thread. Transfers and kernels: CUDA events, one after the other, no overlap (variants take no stream). "
        "e2e: upload + kernels + download, conversions excluded. ms/image and MP/s (input megapixels): kernels "
        "only; MP/s e2e: pinned end to end.\n",
        b.images, b.width, b.height);
    std::ofstream(dir + "/batch.txt") << o.command_line << "\n\n" << table << "\n" << legend;
    fmt::print("\n{}\n{}results: {}/batch.csv, batch.json, batch.txt\n", table, legend, dir);
}

}  // namespace

std::pair<int, int> parse_batch_size(const std::string &text) {
    const Error malformed("bench: --batch-size must be WIDTHxHEIGHT (e.g. 4096x2304), got '" + text + "'");
    const std::size_t x = text.find('x');
    if (x == std::string::npos) throw malformed;
    long long side[2] = {0, 0};
    const std::string parts[2] = {text.substr(0, x), text.substr(x + 1)};
    for (int i = 0; i < 2; i++) {
        const char *begin = parts[i].data(), *end = begin + parts[i].size();
        if (parts[i].empty() || !std::isdigit(static_cast<unsigned char>(parts[i][0]))) throw malformed;
        const auto [at, ec] = std::from_chars(begin, end, side[i]);
        if (at != end || (ec != std::errc() && ec != std::errc::result_out_of_range)) throw malformed;
        if (ec == std::errc::result_out_of_range || side[i] < 1 || side[i] > kMaxSide) {
            throw Error(fmt::format("bench: --batch-size {}: each side must be 1..{}", text, kMaxSide));
        }
    }
    return {static_cast<int>(side[0]), static_cast<int>(side[1])};
}

std::string run_bench_batch(const BenchOptions &o) {
    check_common_options(o);
    if (o.batch_images < 1 || o.batch_images > kMaxBatchImages) {
        throw Error(fmt::format("bench: --batch must be 1..{} images, got {}", kMaxBatchImages, o.batch_images));
    }
    const auto [width, height] = parse_batch_size(o.batch_size);
    const BatchShape batch{o.batch_images, width, height};
    for (int c : o.channels) {
        try {
            check_image_shape(width, height, c);
        } catch (const Error &e) {
            throw Error(fmt::format("bench: --batch-size {}: {}", o.batch_size, e.what()));
        }
    }
    const std::vector<const Variant *> chosen = chosen_variants(o);
    for (const Variant *v : chosen) {
        const FilterInfo &f = filter_info(v->filter);
        params_for(f, o.params);  // every parameter is validated before anything is measured or written
        if (width < f.min_side || height < f.min_side) {
            throw Error(fmt::format("bench: {} needs images of at least {}x{}, --batch-size is {}", f.name, f.min_side,
                                    f.min_side, o.batch_size));
        }
    }
    for (int c : o.channels) check_memory(batch, chosen, c);

    const std::string dir = make_run_dir(o.out_root);
    nlohmann::json context = machine_facts();
    const auto &gpu = cuda::gpu_info();
    const cuda::Clocks clocks_start = gpu.available ? cuda::current_clocks() : cuda::Clocks{};
    if (gpu.available) {
        fmt::print("GPU {} ({} SMs), clocks SM {} MHz / memory {} MHz\n", gpu.name, gpu.sm_count, clocks_start.sm_mhz,
                   clocks_start.memory_mhz);
    } else {
        fmt::print("no GPU ({}): CUDA variants skipped\n", gpu.why_not);
    }
    fmt::print("CPU {}, {} Halide threads; commit {}\n", cpu_model(), halide_thread_count(), build_commit());

    std::vector<BatchResult> results;
    std::size_t done = 0;
    const std::size_t total = chosen.size() * o.channels.size();
    for (int channels : o.channels) {
        std::vector<Image> inputs;
        Stats to_planar_ms;
        {
            fmt::print("batch of {} images {}x{}x{}: converting to planar ... ", batch.images, width, height, channels);
            std::cout.flush();
            const auto interleaved = random_interleaved(batch, channels);
            to_planar_ms = time_to_planar(o, batch, channels, interleaved, inputs);
            fmt::print("{:.2f} ms per batch\n", to_planar_ms.median);
        }
        for (std::size_t first = 0; first < chosen.size();) {
            // The variants of one filter (the registry keeps them together) share its outputs and reference.
            const FilterInfo &f = filter_info(chosen[first]->filter);
            std::size_t end = first;
            while (end < chosen.size() && chosen[end]->filter == f.name) end++;
            const ParamValues params = params_for(f, o.params);
            const BatchShape out = batch.output_of(f);
            std::vector<Image> outputs(batch.images, Image(out.width, out.height, channels));
            const Stats to_interleaved_ms = time_to_interleaved(o, outputs);
            std::optional<Image> reference;
            std::unique_ptr<DeviceBatch> device;  // made for the first CUDA variant timed
            for (; first < end; first++) {
                const Variant &v = *chosen[first];
                BatchResult r{&v, channels, params, "ok", "", {}};
                fmt::print("[{}/{}] {} {} {}x{}x{}x{} {} ... ", ++done, total, v.filter, v.name, batch.images, width,
                           height, channels, format_params(params));
                std::cout.flush();
                try {
                    if (std::string why = v.why_unavailable(); !why.empty()) throw std::invalid_argument(why);
                    if (std::string why = v.unsupported_reason(params); !why.empty()) throw std::invalid_argument(why);
                    if (double(inputs[0].size()) * reference_work_per_sample(f, params) > kBenchReferenceBudget) {
                        throw std::invalid_argument("the reference would take too long to check this size");
                    }
                    if (!reference) reference = f.reference(inputs[0], params);
                    const Image checked = check_first_image(v, f, *reference, inputs[0], r);
                    if (measured(r)) {
                        if (v.backend == Backend::cuda) {
                            if (!device) device = std::make_unique<DeviceBatch>(inputs, out, channels);
                            time_cuda_batch(o, inputs, outputs, *device, r);
                            check_batch_outputs(checked, outputs, device.get(), r);
                        } else {
                            time_cpu_batch(o, inputs, outputs, r);
                            check_batch_outputs(checked, outputs, nullptr, r);
                        }
                    }
                } catch (const std::invalid_argument &e) {
                    r.status = "skipped";
                    r.note = e.what();
                } catch (const Error &e) {
                    r.status = "error";
                    r.note = e.what();
                }
                if (measured(r)) {
                    r.ms[Phase::to_planar] = to_planar_ms;
                    r.ms[Phase::to_interleaved] = to_interleaved_ms;
                    fmt::print("kernels {:.2f} ms per batch{}{}\n", r.ms[Phase::kernel].median,
                               r.ms[Phase::total_pinned].samples
                                   ? fmt::format(", pinned end to end {:.2f} ms", r.ms[Phase::total_pinned].median)
                                   : "",
                               r.status == "ok" ? "" : " (" + r.note + ")");
                } else {
                    r.ms = {};  // a variant not timed to the end shows no partial times
                    fmt::print("{}: {}\n", r.status, r.note);
                }
                results.push_back(r);
            }
        }
    }
    const cuda::Clocks clocks_end = gpu.available ? cuda::current_clocks() : cuda::Clocks{};
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    context["host_name"] = host;
    context["command"] = o.command_line;
    context["gpu_clocks_start"] = {{"sm_mhz", clocks_start.sm_mhz}, {"memory_mhz", clocks_start.memory_mhz}};
    context["gpu_clocks_end"] = {{"sm_mhz", clocks_end.sm_mhz}, {"memory_mhz", clocks_end.memory_mhz}};
    write_results(dir, o, batch, results, context);
    return dir;
}

}  // namespace filterlab
