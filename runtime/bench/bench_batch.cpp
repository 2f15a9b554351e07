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

#include "batch_ranks.h"
#include "batch_report.h"
#include "batch_timing.h"
#include "bench_common.h"
#include "cuda_support.h"
#include "error.h"
#include "machine.h"
#include "noise.h"
#include "registry.h"
#include "world.h"

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
        throw Error(
            fmt::format("bench: {} needs about {} of host memory, {} available", what, mib(host), mib(host_free)));
    }
    if (!any_cuda) return;
    const std::size_t gpu_free = cuda::free_memory_bytes();
    if (device + kGpuMarginBytes > gpu_free) {
        throw Error(fmt::format("bench: {} needs {} of GPU memory (inputs and outputs) and {} of room, {} free", what,
                                mib(device), mib(kGpuMarginBytes), mib(gpu_free)));
    }
}

// The batch as files give it: N distinct random images, interleaved (the
// images first .. first + N - 1 of the whole batch, which ranks share).
std::vector<std::vector<uint8_t>> random_interleaved(const BatchShape &b, int channels, int first) {
    std::vector<std::vector<uint8_t>> images(b.images);
    for (int i = 0; i < b.images; i++) {
        SeededRandom random(1234 + 1000 * (first + i) + channels);
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
        for (int i = 0; i < b.images; i++)
            planar[i] = from_interleaved(interleaved[i].data(), b.width, b.height, channels);
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

bool measured(const BatchResult &r) { return is_timed(r.status); }

// One filter's share of a batch at one channel count: what its variants share.
struct FilterBatch {
    const FilterInfo &filter;
    ParamValues params;
    int channels;
    const std::vector<Image> &inputs;
    BatchShape out;
    std::vector<Image> outputs;  // planar, host
    Stats to_planar_ms, to_interleaved_ms;
    std::optional<Image> reference;       // of the first input, for the first variant checked
    std::unique_ptr<DeviceBatch> device;  // made for the first CUDA variant timed
};

// Checks the variant on the first image, then times it on the whole batch;
// whatever stops it ends in the result's status.
BatchResult measure(const BenchOptions &o, const Variant &v, FilterBatch &fb) {
    BatchResult r{&v, fb.channels, fb.params, Status::ok, "", {}};
    const Image &first = fb.inputs.front();
    run_case(v, fb.params, first, r.status, r.note, [&] {
        if (v.backend == Backend::opencl) {
            throw std::invalid_argument("batches time CUDA transfers; OpenCL variants are timed by bench without --batch");
        }
        if (double(first.size()) * reference_work_per_sample(fb.filter, fb.params) > kBenchReferenceBudget) {
            throw std::invalid_argument("the reference would take too long to check this size");
        }
        if (!fb.reference) fb.reference = fb.filter.reference(first, fb.params);
        const Image checked = check_first_image(v, fb.filter, *fb.reference, first, r);
        if (measured(r) && v.backend == Backend::cuda) {
            if (!fb.device) fb.device = std::make_unique<DeviceBatch>(fb.inputs, fb.out, fb.channels);
            time_cuda_batch(o, fb.inputs, fb.outputs, *fb.device, r);
            check_batch_outputs(checked, fb.outputs, fb.device.get(), r);
        } else if (measured(r)) {
            time_cpu_batch(o, fb.inputs, fb.outputs, r);
            check_batch_outputs(checked, fb.outputs, nullptr, r);
        }
    });
    if (!measured(r)) {
        r.ms = {};  // a variant not timed to the end shows no partial times
        return r;
    }
    r.ms[Phase::to_planar] = fb.to_planar_ms;
    r.ms[Phase::to_interleaved] = fb.to_interleaved_ms;
    return r;
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

namespace {

// Everything checked before anything is measured or written; returns this
// rank's share of the images.
BatchShare check_batch_options(const BenchOptions &o, const mpi::World &world) {
    check_common_options(o);
    if (o.batch_images < 1 || o.batch_images > kMaxBatchImages) {
        throw Error(fmt::format("bench: --batch must be 1..{} images, got {}", kMaxBatchImages, o.batch_images));
    }
    if (o.batch_images < world.size()) {
        throw Error(fmt::format("bench: --batch {} is fewer images than the {} ranks", o.batch_images, world.size()));
    }
    const BatchShare share = batch_share(o.batch_images, world.rank(), world.size());
    const auto [width, height] = parse_batch_size(o.batch_size);
    const BatchShape batch{share.images, width, height};
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
        params_for(f, o.params);
        if (width < f.min_side || height < f.min_side) {
            throw Error(fmt::format("bench: {} needs images of at least {}x{}, --batch-size is {}", f.name, f.min_side,
                                    f.min_side, o.batch_size));
        }
    }
    for (int c : o.channels) check_memory(batch, chosen, c);
    return share;
}

// The run's context for batch.json: the machine's facts and how the batch was split.
nlohmann::json batch_context(const BenchOptions &o, const mpi::World &world) {
    nlohmann::json context = machine_facts();
    context["mpi_ranks"] = world.size();
    context["batch_images_in_all"] = o.batch_images;
    return context;
}

// Says which GPU and CPU the run times on; returns the GPU's clocks at the start.
cuda::Clocks announce_devices(const BenchOptions &o) {
    const auto &gpu = cuda::gpu_info();
    const cuda::Clocks clocks_start = gpu.available ? cuda::current_clocks() : cuda::Clocks{};
    if (gpu.available) {
        bench_say(o, "GPU {} ({} SMs), clocks SM {} MHz / memory {} MHz\n", gpu.name, gpu.sm_count, clocks_start.sm_mhz,
                   clocks_start.memory_mhz);
    } else {
        bench_say(o, "no GPU ({}): CUDA variants skipped\n", gpu.why_not);
    }
    bench_say(o, "CPU {}, {} Halide threads; commit {}\n", cpu_model(), halide_thread_count(), build_commit());
    return clocks_start;
}

// This rank's images at one channel count made planar in `inputs`; returns the time that took.
Stats planar_inputs(const BenchOptions &o, const BatchShape &batch, int channels, int first,
                    std::vector<Image> &inputs) {
    bench_say(o, "batch of {} images {}x{}x{}: converting to planar ... ", batch.images, batch.width, batch.height,
               channels);
    std::cout.flush();
    const auto interleaved = random_interleaved(batch, channels, first);
    const Stats to_planar_ms = time_to_planar(o, batch, channels, interleaved, inputs);
    bench_say(o, "{:.2f} ms per batch\n", to_planar_ms.median);
    return to_planar_ms;
}

// What every variant timed at one channel count shares.
struct ChannelRound {
    const BenchOptions &o;
    const mpi::World &world;
    const BatchShape &batch;
    int channels;
    const std::vector<Image> &inputs;  // planar
    const Stats &to_planar_ms;
};

// How far the run is, for the "[done/total, time left]" of each variant.
struct RunProgress {
    std::size_t done;
    const std::size_t total;
    const std::chrono::steady_clock::time_point started;
};

// Says how a variant's timing went: its kernel time, or why it was not timed.
void say_outcome(const BenchOptions &o, const BatchResult &r) {
    const Stats &e2e = r.ms[Phase::total_pinned];
    if (measured(r)) {
        bench_say(o, "kernels {:.2f} ms per batch{}{}\n", r.ms[Phase::kernel].median,
                   e2e.samples ? fmt::format(", pinned end to end {:.2f} ms", e2e.median) : "",
                   r.status == Status::ok ? "" : " (" + r.note + ")");
    } else {
        bench_say(o, "{}: {}\n", to_string(r.status), r.note);
    }
}

// Announces one variant, times it on every rank at once and says how it went.
BatchResult time_variant(const ChannelRound &round, const Variant &v, FilterBatch &fb, RunProgress &progress) {
    const BenchOptions &o = round.o;
    bench_say(o, "[{}/{}{}] {} {} {} x {}x{}x{} {}... ", progress.done + 1, progress.total,
               time_left(progress.started, progress.done, progress.total), v.filter, v.name, round.batch.images,
               round.batch.width, round.batch.height, round.channels,
               fb.params.empty() ? "" : format_params(fb.params) + " ");
    progress.done++;
    // Every rank times this variant at the same time; what stops one
    // rank (its GPU out of memory) stops all, with one error line.
    round.world.barrier();
    BatchResult r{&v, round.channels, fb.params, Status::ok, "", {}};
    round.world.collective([&] { r = measure(o, v, fb); });
    say_outcome(o, r);
    return r;
}

// Times the variants of one filter, chosen[next] and those after it of the
// same filter; returns the index past them.
std::size_t time_filter_variants(const ChannelRound &round, const std::vector<const Variant *> &chosen,
                                 std::size_t next, RunProgress &progress, std::vector<BatchResult> &results) {
    // The variants of one filter (the registry keeps them together) share its outputs and reference.
    const FilterInfo &f = filter_info(chosen[next]->filter);
    FilterBatch fb{f, params_for(f, round.o.params), round.channels, round.inputs, round.batch.output_of(f), {},
                   round.to_planar_ms, {}, {}, {}};
    fb.outputs.assign(round.batch.images, Image(fb.out.width, fb.out.height, round.channels));
    fb.to_interleaved_ms = time_to_interleaved(round.o, fb.outputs);
    for (; next < chosen.size() && chosen[next]->filter == f.name; next++)
        results.push_back(time_variant(round, *chosen[next], fb, progress));
    return next;
}

// Times every chosen variant on this rank's images, channel count after channel count.
std::vector<BatchResult> time_batch(const BenchOptions &o, const mpi::World &world,
                                    const std::vector<const Variant *> &chosen, const BatchShape &batch, int first) {
    std::vector<BatchResult> results;
    const auto started = std::chrono::steady_clock::now();
    RunProgress progress{0, chosen.size() * o.channels.size(), started};
    for (int channels : o.channels) {
        std::vector<Image> inputs;
        const Stats to_planar_ms = planar_inputs(o, batch, channels, first, inputs);
        const ChannelRound round{o, world, batch, channels, inputs, to_planar_ms};
        for (std::size_t next = 0; next < chosen.size();)
            next = time_filter_variants(round, chosen, next, progress, results);
    }
    return results;
}

}  // namespace

std::string run_bench_batch(const BenchOptions &options) {
    // Under mpirun each rank times its share of the images (batch_ranks.h);
    // rank 0 alone prints and writes.
    const mpi::World &world = mpi::world();
    BenchOptions o = options;
    o.quiet = options.quiet || !world.root();
    std::optional<NewRunDir> run_dir;
    BatchShare share;
    world.collective([&] {
        share = check_batch_options(o, world);
        if (world.root()) run_dir.emplace(o.out_root);
    });
    const auto [width, height] = parse_batch_size(o.batch_size);
    const BatchShape batch{share.images, width, height};
    const std::vector<const Variant *> chosen = chosen_variants(o);
    const std::string dir = world.root() ? run_dir->path() : "";
    nlohmann::json context = batch_context(o, world);
    const cuda::Clocks clocks_start = announce_devices(o);
    const std::vector<BatchResult> results = time_batch(o, world, chosen, batch, share.first);
    close_run_context(context, o, clocks_start);
    if (!world.distributed()) {
        write_batch_results(dir, o, batch, results, context);
        return run_dir->keep();
    }
    const std::string ranks = gather_rank_results(dir, batch, o.batch_images, results);
    if (!world.root()) return "";
    context["ranks_summary"] = ranks;
    write_batch_results(dir, o, batch, results, context);
    fmt::print("{}", ranks);
    return run_dir->keep();
}

}  // namespace filterlab
