#include "bench_paths.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <vector>

#include "cuda_support.h"
#include "machine.h"
#include "opencl_support.h"
#include "reference.h"

namespace filterlab {
namespace {

using Clock = std::chrono::steady_clock;

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

// The CPU's rotation goes beyond its last-level cache (twice it, 128 MB at
// least), within 4 GiB and kMaxRotation buffers: images under ~400² gray
// (1024 x 128 KiB) stay in the Xeon's L3.
double cpu_cache_bytes() { return std::max(64e6, last_level_cache_bytes()); }

}  // namespace

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
    buffers = rotation_count(pair_bytes(input, out_size), cpu_cache_bytes(), 4.0 * (1ull << 30));
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

nlohmann::json timing_protocol_json(const BenchOptions &defaults) {
    return {{"min_samples", defaults.min_reps},
            {"min_seconds", defaults.min_seconds},
            {"max_seconds_per_case", defaults.max_seconds_per_case},
            {"gpu_runs_per_sample", kMinTimedRuns},
            {"max_buffers", kMaxRotation},
            {"cache_bytes", {{"cpu", cpu_cache_bytes()}, {"cuda", double(cuda::gpu_info().l2_bytes)}}}};
}

}  // namespace filterlab
