// libfilterlab.so called from many threads at once, as a program linking it
// does: T threads, each with S CUDA streams, every thread issuing S calls at a
// time (one per stream) of mixed filters, variants, sizes, channel counts,
// layouts and memories, half of them bad. Every good call's output is compared
// with the reference and its padding with its poison; every bad call must fail
// with a message that names its own values (a call-unique number), leaving
// its output untouched. Prints one line per failure and "N passed, M failed".
//
//   test_concurrency [--backend cpu|cuda|opencl] [--threads 8] [--streams 2]
//                    [--rounds N] [--repeat 1] [--only FILTER/VARIANT]...
// (--rounds: S calls a thread each; by default as many as cover every variant.)
//
// Exit 0: all passed; 1: a failure; 77: the backend has no variant or no
// device here (CTest: skipped).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "concurrency_calls.h"
#include "filters.h"
#include "noise.h"

namespace fl = filterlab;
using namespace filterlab::concurrency;

namespace {

struct Settings {
    std::string backend = "cpu";
    int threads = 8, streams = 2, rounds = 0, repeat = 1;  // rounds 0: enough for every variant
    std::vector<std::string> only;  // FILTER/VARIANT
};

// The sizes a good call draws from: 1x1 and 2x3 (the smallest images),
// primes, odd sizes, non-multiples of every tile; the larger only where the
// reference is quick (NL-means' costs ~2000 operations a pixel).
std::vector<std::pair<int, int>> sizes_for(const fl::FilterInfo &filter, bool gpu) {
    std::vector<std::pair<int, int>> sizes = {{filter.min_side, filter.min_side}, {2, 3}, {31, 37}, {97, 89}};
    if (filter.name != "nlmeans") {
        sizes.push_back({333, 333});
        if (gpu) sizes.push_back({1000, 1000});
    }
    return sizes;
}

// The references, computed before any thread starts: the threads only read them.
class References {
public:
    struct Entry {
        fl::Image input, output;
    };
    void prepare(const std::vector<Target> &targets, bool gpu) {
        for (const Target &t : targets)
            for (auto [w, h] : sizes_for(fl::filter_info(t.filter), gpu))
                for (int c : {1, 3}) add(t, w, h, c);
    }
    const Entry &at(const Target &t, int w, int h, int c) const { return entries_.at(key(t, w, h, c)); }

private:
    std::map<std::string, Entry> entries_;
    static std::string key(const Target &t, int w, int h, int c) {
        std::string k = t.filter + "/" + std::to_string(w) + "x" + std::to_string(h) + "x" + std::to_string(c);
        for (const auto &[name, value] : t.params) k += " " + name + "=" + std::to_string(value);
        return k;
    }
    void add(const Target &t, int w, int h, int c) {
        const std::string k = key(t, w, h, c);
        if (entries_.count(k)) return;
        const fl::FilterInfo &info = fl::filter_info(t.filter);
        Entry e;
        e.input = fl::random_image(w, h, c, static_cast<uint32_t>(w * 7 + h * 3 + c));
        e.output = info.reference(e.input, fl::ParamValues(t.params.begin(), t.params.end()));
        entries_[k] = std::move(e);
    }
};

// Call `slot` of a thread's round: what it runs and how it is wrong, if it is.
Call plan_call(const std::vector<Target> &targets, const References &refs, int thread, int round, int slot,
               const Settings &s, bool gpu) {
    const int id = ((thread * s.rounds + round) * s.streams + slot) + 1;  // unique in the process
    // Every thread runs the same variants at the same time, each on its own
    // size: the way shared state inside one variant shows (round x streams
    // covers every variant once with the default --rounds).
    const Target &target = targets[static_cast<std::size_t>(round * s.streams + slot) % targets.size()];
    const fl::FilterInfo &info = fl::filter_info(target.filter);
    const auto sizes = sizes_for(info, gpu);
    const auto [w, h] = sizes[static_cast<std::size_t>(thread + round * 3 + slot) % sizes.size()];
    Call call;
    call.id = id;
    call.target = target;
    call.width = w;
    call.height = h;
    call.channels = (thread + round) % 2 ? 3 : 1;
    call.layout = (round + slot) % 2 ? fl::Layout::interleaved : fl::Layout::planar;
    call.pad = (thread % 3) * 7 + ((w % 16) ? 16 - w % 16 : 0);  // planar rows on 16 bytes, then odd pads
    call.on_device = gpu && (thread + slot) % 2 == 0;
    call.stream_index = slot;
    call.bad = static_cast<Bad>((thread + round + slot) % 2 ? 1 + (id % 3) : 0);
    const References::Entry &e = refs.at(target, w, h, call.channels);
    call.input = &e.input;
    call.expected = &e.output;
    return call;
}

std::vector<Target> targets_of(const Settings &s) {
    std::vector<Target> targets;
    for (const fl::VariantInfo &v : fl::variants()) {
        if (v.backend != s.backend) continue;
        const std::string name = v.filter + "/" + v.name;
        if (!s.only.empty() && std::find(s.only.begin(), s.only.end(), name) == s.only.end()) continue;
        targets.push_back(target_of(v));
    }
    return targets;
}

struct Tally {
    std::atomic<int> passed{0}, failed{0};
    std::mutex print;
    void fail(const std::string &what) {
        if (failed++ < 40) {
            std::lock_guard lock(print);
            std::fprintf(stderr, "FAILED: %s\n", what.c_str());
        }
    }
};

// One thread: `rounds` times, S calls issued (one per stream), then each
// finished and checked.
void run_thread(int thread, const std::vector<Target> &targets, const References &refs, const Settings &s, bool gpu,
                Tally &tally) {
    std::vector<void *> streams(s.streams, nullptr);
    for (auto &stream : streams)
        if (gpu) cudaStreamCreateWithFlags(reinterpret_cast<cudaStream_t *>(&stream), cudaStreamNonBlocking);
    for (int round = 0; round < s.rounds; round++) {
        std::vector<Issued> issued;
        for (int slot = 0; slot < s.streams; slot++) {
            const Call call = plan_call(targets, refs, thread, round, slot, s, gpu);
            issued.push_back(issue(call, streams[slot]));
        }
        for (Issued &i : issued) {
            const std::string problem = finish(i);
            if (problem.empty()) tally.passed++;
            else tally.fail(describe(i.call) + ": " + problem);
        }
    }
    for (void *stream : streams)
        if (stream) cudaStreamDestroy(static_cast<cudaStream_t>(stream));
}

Settings parse(int argc, char **argv) {
    Settings s;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i], value = argv[i + 1];
        if (flag == "--backend") s.backend = value;
        else if (flag == "--threads") s.threads = std::stoi(value);
        else if (flag == "--streams") s.streams = std::stoi(value);
        else if (flag == "--rounds") s.rounds = std::stoi(value);
        else if (flag == "--repeat") s.repeat = std::stoi(value);
        else if (flag == "--only") s.only.push_back(value);
        else throw std::runtime_error("unknown option " + flag);
    }
    return s;
}

}  // namespace

int main(int argc, char **argv) try {
    Settings s = parse(argc, argv);
    const bool gpu = s.backend == "cuda";
    int devices = 0;
    if (gpu && (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)) {
        std::printf("no GPU: the CUDA concurrency test is skipped\n");
        return 77;
    }
    const std::vector<Target> targets = targets_of(s);
    if (targets.empty()) {
        std::printf("no %s variant here: skipped\n", s.backend.c_str());
        return 77;
    }
    if (const std::string why = device_missing(targets.front()); !why.empty()) {
        std::printf("%s: skipped\n", why.c_str());
        return 77;
    }
    if (s.rounds <= 0) s.rounds = static_cast<int>((targets.size() + s.streams - 1) / s.streams);
    References refs;
    refs.prepare(targets, gpu);
    Tally tally;
    for (int r = 0; r < s.repeat; r++) {
        std::vector<std::thread> threads;
        for (int t = 0; t < s.threads; t++)
            threads.emplace_back(run_thread, t, std::cref(targets), std::cref(refs), std::cref(s), gpu, std::ref(tally));
        for (auto &t : threads) t.join();
    }
    std::printf("%s: %zu variants, %d threads x %d streams x %d rounds, %d times\n", s.backend.c_str(), targets.size(),
                s.threads, s.streams, s.rounds, s.repeat);
    std::printf("%d passed, %d failed\n", tally.passed.load(), tally.failed.load());
    return tally.failed.load() == 0 ? 0 : 1;
} catch (const std::exception &e) {
    std::fprintf(stderr, "test_concurrency: %s\n", e.what());
    return 2;
}
