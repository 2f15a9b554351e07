#include "streamed_run.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "band_workers.h"
#include "error.h"
#include "harness.h"

namespace filterlab::stream {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// The slots a band passes through: read into (free -> loaded), filtered
// (loaded -> filtered), written out (filtered -> free). Each stage is one
// thread walking the bands in order; the first failure stops them all.
class SlotRing {
public:
    enum class State { free, loaded, filtered };
    struct Stopped {};
    explicit SlotRing(int slots) : states_(slots, State::free) {}
    int size() const { return static_cast<int>(states_.size()); }

    // Runs `step(band, slot)` for every band once its slot reaches `from`,
    // then moves the slot on to `to`. Never throws: a failure stops the ring.
    template <typename Step>
    void stage(int bands, State from, State to, Step step) {
        try {
            for (int b = 0; b < bands; b++) {
                const int slot = b % size();
                await(slot, from);
                step(b, slot);
                set(slot, to);
            }
        } catch (const Stopped &) {
        } catch (...) {
            fail(std::current_exception());
        }
    }
    void rethrow() const {
        if (error_) std::rethrow_exception(error_);
    }
    void fail(std::exception_ptr error) {
        {
            std::lock_guard lock(mutex_);
            if (!error_) error_ = error;
        }
        changed_.notify_all();
    }

private:
    void await(int slot, State state) {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return error_ || states_[slot] == state; });
        if (error_) throw Stopped{};
    }
    void set(int slot, State state) {
        {
            std::lock_guard lock(mutex_);
            states_[slot] = state;
        }
        changed_.notify_all();
    }
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<State> states_;
    std::exception_ptr error_;
};

// `count` rows in up to `threads` runs of consecutive rows at once.
template <typename Rows>
void in_parallel(int count, int threads, Rows rows) {
    const int runs = std::max(1, std::min(threads, count / 16));
    std::vector<std::future<void>> pending;
    for (int i = 1; i < runs; i++) {
        const int first = static_cast<int>(static_cast<long long>(count) * i / runs);
        const int end = static_cast<int>(static_cast<long long>(count) * (i + 1) / runs);
        pending.push_back(std::async(std::launch::async, rows, first, end - first));
    }
    rows(0, static_cast<int>(static_cast<long long>(count) / runs));
    for (auto &p : pending) p.get();
}

// Interleaved rows <-> planar ones (3 channels; 1 channel is the same bytes).
void to_planar(const uint8_t *from, int width, int rows, uint8_t *to, std::ptrdiff_t plane) {
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < width; x++)
            for (int c = 0; c < 3; c++) to[c * plane + static_cast<std::ptrdiff_t>(y) * width + x] = *from++;
}
void to_interleaved(const HostRows &from, int width, int rows, uint8_t *to) {
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < width; x++)
            for (int c = 0; c < 3; c++) *to++ = from.data[c * from.plane_stride + y * from.row_stride + x];
}

// One run's three stages over the slots, with what each stage keeps. The
// worker (a CUDA variant's: contexts, pinned staging, device memory) is made
// on a thread of its own while this one reads the first bands, one slot's
// worth each at most, into host memory of their own, until it is ready:
// CUDA's start overlaps the file (a CPU variant's worker is ready at once).
class Pipeline {
public:
    Pipeline(const Variant &variant, const RowSource &source, const RowSink &sink, const ParamValues &params,
             const StreamOptions &options)
        : source_(source), sink_(sink), shape_(source.shape()),
          plan_(plan_stream(filter_info(variant.filter), params, shape_.width, shape_.height, shape_.channels,
                            options.limits)),
          io_(std::max(1, options.io_threads)),
          early_(std::min(static_cast<int>(plan_.bands.size()), std::max(1, options.slots))),
          // Uses plan_ and setup_ only: the members after pending_ are not made yet.
          pending_(std::async(std::launch::async, [this, &variant, &params, &options] {
              const auto began = Clock::now();
              auto worker = make_band_worker(variant, params, plan_, std::max(1, options.slots), options.gpus);
              setup_ = seconds_since(began);
              return worker;
          })) {}

    // The first bands read while the worker is made; then reader and writer
    // threads around the compute stage on this thread.
    StreamTimes run() {
        try {
            read_early();
        } catch (...) {  // the worker's own failure, if it failed too, says more
            worker_ = pending_.get();
            throw;
        }
        worker_ = pending_.get();
        SlotRing ring(worker_->slots());
        const int bands = static_cast<int>(plan_.bands.size());
        using State = SlotRing::State;
        std::thread reader([&] { ring.stage(bands, State::free, State::loaded, [&](int b, int s) { load(b, s); }); });
        std::thread writer;
        try {
            writer = std::thread([&] { ring.stage(bands, State::filtered, State::free, [&](int b, int s) { write(b, s); }); });
        } catch (...) {  // no thread to write with: stop the reader, then say why
            ring.fail(std::current_exception());
            reader.join();
            throw;
        }
        ring.stage(bands, State::loaded, State::filtered, [&](int b, int s) { worker_->compute(s, plan_.bands[b]); });
        reader.join();
        writer.join();
        ring.rethrow();
        const ComputeTimes compute = worker_->times();
        times_.upload_ms = compute.upload;
        times_.kernel_ms = compute.kernel;
        times_.download_ms = compute.download;
        times_.device_span_ms = compute.device_span;
        times_.bands = bands;
        times_.tiles = static_cast<int>(plan_.tiles.size());
        times_.gpus = worker_->devices();
        times_.staging_bytes = worker_->host_bytes() + early_bytes_ + read_scratch_.capacity() +
                               write_scratch_.capacity() + source_.held_bytes();
        times_.setup = setup_;
        return times_;
    }

private:
    std::size_t band_bytes(int b) const { return shape_.row_bytes() * plan_.bands[b].in_count(); }
    // The first bands, up to early_, into host memory of their own while the
    // worker is being made.
    void read_early() {
        using namespace std::chrono_literals;
        for (int b = 0; b < early_ && pending_.wait_for(0s) != std::future_status::ready; b++) {
            early_rows_.emplace_back(new uint8_t[band_bytes(b)]);  // not zeroed: every byte is read into
            early_bytes_ += band_bytes(b);
            read(b, early_rows_.back().get());
        }
    }
    // A band's planar input into its slot: read now, or copied from its early read.
    void load(int b, int slot) {
        if (b >= static_cast<int>(early_rows_.size())) return read(b, worker_->input(slot));
        const auto began = Clock::now();
        std::memcpy(worker_->input(slot), early_rows_[b].get(), band_bytes(b));
        early_rows_[b].reset();
        times_.read += seconds_since(began);
    }
    // A band's rows from the source, planar, to `to`.
    void read(int b, uint8_t *to) {
        const auto began = Clock::now();
        const Span &band = plan_.bands[b];
        const std::size_t row = shape_.row_bytes();
        if (shape_.channels == 3) read_scratch_.resize(row * band.in_count());
        uint8_t *file_rows = shape_.channels == 3 ? read_scratch_.data() : to;
        in_parallel(band.in_count(), source_.sequential() ? 1 : io_, [&](int first, int count) {
            source_.read_rows(band.in_first + first, count, file_rows + first * row);
        });
        if (shape_.channels == 3) {
            to_planar(file_rows, shape_.width, band.in_count(), to, static_cast<std::ptrdiff_t>(shape_.width) * band.in_count());
        }
        if (b + 1 == static_cast<int>(plan_.bands.size())) source_.finish();
        times_.read += seconds_since(began);
    }
    // A band's kept output rows, once in host memory, into the sink.
    void write(int b, int slot) {
        const Span &band = plan_.bands[b];
        const HostRows rows = worker_->output(slot, band);
        const auto began = Clock::now();
        const std::size_t row = static_cast<std::size_t>(plan_.out_width) * shape_.channels;
        const uint8_t *from = rows.data;
        if (shape_.channels == 3) {
            write_scratch_.resize(row * band.out_count);
            to_interleaved(rows, plan_.out_width, band.out_count, write_scratch_.data());
            from = write_scratch_.data();
        }
        in_parallel(band.out_count, sink_.sequential() ? 1 : io_, [&](int first, int count) {
            sink_.write_rows(band.out_first + first, count, from + first * row);
        });
        times_.write += seconds_since(began);
    }

    const RowSource &source_;
    const RowSink &sink_;
    const FileShape shape_;
    const StreamPlan plan_;
    const int io_;
    const int early_;                                // at most this many bands read while the worker is made
    double setup_ = 0;                               // seconds making it (its own thread)
    std::future<std::unique_ptr<BandWorker>> pending_;  // the worker, being made
    std::vector<std::unique_ptr<uint8_t[]>> early_rows_;  // those bands, until copied to their slots
    std::size_t early_bytes_ = 0;
    std::unique_ptr<BandWorker> worker_;
    std::vector<uint8_t> read_scratch_, write_scratch_;  // 3-channel rows as the file has them
    StreamTimes times_;  // read by the reader, write by the writer: fields apart
};

}  // namespace

StreamTimes run_streamed(const Variant &variant, const RowSource &source, const RowSink &sink,
                         const ParamValues &params, const StreamOptions &options) {
    const auto start = Clock::now();
    const FileShape shape = source.shape();
    check_can_run(variant, params, shape.width, shape.height, shape.channels);
    Pipeline pipeline(variant, source, sink, params, options);
    StreamTimes times = pipeline.run();
    times.wall = seconds_since(start);
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    times.peak_rss_mib = usage.ru_maxrss / 1024.0;
    return times;
}

}  // namespace filterlab::stream
