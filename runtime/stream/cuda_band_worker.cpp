// The CUDA band worker: per slot a pinned input and output, device buffers
// and a stream, so that one band's upload, another's kernels and a third's
// download run at once (the copy engines and the SMs are separate), while
// the host threads read and write other bands. Over several GPUs each device
// has its own slots, taken in turn: band b runs on device b mod N, queued by
// the one compute thread (each call only queues work), so N devices' copies
// and kernels overlap as one device's slots do.
#include <algorithm>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "band_extents.h"
#include "cuda_staging.h"
#include "cuda_support.h"
#include "error.h"
#include "image.h"

namespace filterlab::stream {
namespace {

// Its stream is its last member, so the first destroyed: ~Stream waits for the
// slot's queued copies and kernels before any buffer they use is freed (a run
// that fails midway leaves work in flight).
struct CudaSlot {
    int device;
    cuda::PinnedBuffer host_in, host_out;
    gpu::DeviceBuffer device_in, device_out;
    std::unique_ptr<gpu::DeviceBuffer> tile;  // a tile's whole output, when a row is cut in tiles
    gpu::Event began, uploaded, filtered, downloaded;
    gpu::Stream stream;
    CudaSlot(int on, std::size_t in_host, std::size_t out_host, std::size_t in_device, std::size_t out_device,
             std::size_t tile_device)
        : device(on), host_in(in_host), host_out(out_host), device_in(in_device, DeviceLayout::kGuardBytes),
          device_out(out_device, DeviceLayout::kGuardBytes) {
        if (tile_device > 0) tile = std::make_unique<gpu::DeviceBuffer>(tile_device, DeviceLayout::kGuardBytes);
    }
};

// Frees a slot on its own device (its stream waited for, its memory released
// there), also when a worker's construction fails midway.
struct OnItsDevice {
    void operator()(CudaSlot *slot) const {
        try {
            cuda::DeviceScope on(slot->device);
            delete slot;
        } catch (const std::exception &) {  // the device cannot be made current: freed from the caller's
            delete slot;
        }
    }
};
using SlotOnDevice = std::unique_ptr<CudaSlot, OnItsDevice>;

// One device's first-upload event (the device's span starts there) and slots.
struct DeviceSlots {
    std::unique_ptr<gpu::Event> first;
    std::vector<SlotOnDevice> slots;
};

// make(d) for each device d, each on a thread of its own with d current, so
// that the devices' contexts start and their pinned and device memory is
// allocated at once, not one device after the other; the first failure is
// rethrown once every thread has ended (what the others made is freed).
template <typename Make>
std::vector<DeviceSlots> on_every_device(int devices, Make make) {
    std::vector<DeviceSlots> made(devices);
    std::vector<std::exception_ptr> failed(devices);
    auto make_on = [&](int d) {
        try {
            cuda::DeviceScope on(d);
            made[d] = make(d);
        } catch (...) {
            failed[d] = std::current_exception();
        }
    };
    std::vector<std::thread> others;
    try {
        for (int d = 1; d < devices; d++) others.emplace_back(make_on, d);
    } catch (...) {  // no thread to start: the devices not started are made here
        for (int d = static_cast<int>(others.size()) + 1; d < devices; d++) make_on(d);
    }
    make_on(0);
    for (std::thread &t : others) t.join();
    for (const std::exception_ptr &f : failed)
        if (f) std::rethrow_exception(f);
    return made;
}

class CudaWorker : public BandWorker {
public:
    CudaWorker(const Variant &v, const ParamValues &params, const StreamPlan &plan, int slots, int devices)
        : variant_(v), params_(params), plan_(plan), filter_(filter_info(v.filter)), extents_(filter_, plan),
          in_pitch_(DeviceLayout::row_pitch(plan.width)), out_pitch_(DeviceLayout::row_pitch(plan.out_width)),
          tile_pitch_(DeviceLayout::row_pitch(extents_.max_tile_out)), devices_(devices) {
        const std::size_t ch = plan.channels;
        in_host_ = static_cast<std::size_t>(plan.width) * extents_.max_in_rows * ch;
        out_host_ = static_cast<std::size_t>(plan.out_width) * extents_.max_kept_rows * ch;
        const std::size_t in_device = in_pitch_ * extents_.max_in_rows * ch;
        const std::size_t out_device = out_pitch_ * extents_.max_out_rows * ch;
        const std::size_t tile_device = plan.tiles.size() > 1 ? tile_pitch_ * extents_.max_out_rows * ch : 0;
        std::vector<DeviceSlots> made = on_every_device(devices, [&](int d) {
            DeviceSlots mine{std::make_unique<gpu::Event>(), {}};
            mine.slots.reserve(slots);  // no reallocation between a slot's making and its owner
            for (int s = 0; s < slots; s++)
                mine.slots.emplace_back(new CudaSlot(d, in_host_, out_host_, in_device, out_device, tile_device));
            return mine;
        });
        // Slot s on device s mod N: the ring gives band b slot b mod (slots x N),
        // so band b runs on device b mod N (compute() relies on it).
        for (DeviceSlots &m : made) firsts_.push_back(std::move(m.first));
        for (int s = 0; s < slots; s++)
            for (DeviceSlots &m : made) slots_.push_back(std::move(m.slots[s]));
    }
    int slots() const override { return static_cast<int>(slots_.size()); }
    int devices() const override { return devices_; }
    uint8_t *input(int slot) override { return slots_[slot]->host_in.data(); }
    void compute(int slot, const Span &band) override;
    HostRows output(int slot, const Span &band) override;
    ComputeTimes times() const override { return times_; }
    std::size_t host_bytes() const override { return slots_.size() * (in_host_ + out_host_); }

private:
    void filter_tiles(CudaSlot &s, int rows, int out_rows);
    const Variant &variant_;
    const ParamValues &params_;
    const StreamPlan &plan_;
    const FilterInfo &filter_;
    Extents extents_;
    std::size_t in_pitch_, out_pitch_, tile_pitch_, in_host_ = 0, out_host_ = 0;
    const int devices_;
    std::vector<std::unique_ptr<gpu::Event>> firsts_;  // each device's first upload
    std::vector<SlotOnDevice> slots_;
    int bands_ = 0;
    ComputeTimes times_;
};

void CudaWorker::compute(int slot, const Span &band) {
    CudaSlot &s = *slots_[slot];
    cuda::DeviceScope on(s.device);  // the variant runs on the current device
    const int rows = band.in_count(), out_rows = band_out_rows(filter_, plan_, rows);
    const std::size_t ch = plan_.channels;
    s.began.record(s.stream);
    if (bands_++ < devices_) firsts_[s.device]->record(s.stream);  // bands 0..N-1: one on each device
    gpu::upload_rows(s.stream, s.device_in.data(), in_pitch_, s.host_in.data(), plan_.width, plan_.width, rows * ch);
    s.uploaded.record(s.stream);
    filter_tiles(s, rows, out_rows);
    s.filtered.record(s.stream);
    const uint8_t *kept = s.device_out.data() + kept_from(plan_, band) * out_pitch_;
    for (std::size_t c = 0; c < ch; c++) {
        gpu::download_rows(s.stream, s.host_out.data() + c * plan_.out_width * band.out_count, plan_.out_width,
                           kept + c * out_pitch_ * out_rows, out_pitch_, plan_.out_width, band.out_count);
    }
    s.downloaded.record(s.stream);
}

void CudaWorker::filter_tiles(CudaSlot &s, int rows, int out_rows) {
    const int ch = plan_.channels;
    const auto in_plane = static_cast<std::ptrdiff_t>(in_pitch_) * rows;
    const auto out_plane = static_cast<std::ptrdiff_t>(out_pitch_) * out_rows;
    const auto pitch = static_cast<std::ptrdiff_t>(in_pitch_);
    cuda::StreamScope scope(s.stream.get());
    if (plan_.tiles.size() == 1) {
        const PlanarView in{s.device_in.data(), plan_.width, rows, ch, pitch, in_plane};
        variant_.run(in, {s.device_out.data(), plan_.out_width, out_rows, ch, static_cast<std::ptrdiff_t>(out_pitch_), out_plane},
                     params_);
        return;
    }
    const auto tile_plane = static_cast<std::ptrdiff_t>(tile_pitch_) * out_rows;
    for (const Span &t : plan_.tiles) {
        const PlanarView in{s.device_in.data() + t.in_first, t.in_count(), rows, ch, pitch, in_plane};
        const int tile_out = filter_.output_size(t.in_count(), rows).first;
        variant_.run(in, {s.tile->data(), tile_out, out_rows, ch, static_cast<std::ptrdiff_t>(tile_pitch_), tile_plane},
                     params_);
        const int skip = kept_from(plan_, t);
        for (int c = 0; c < ch; c++) {
            gpu::copy_rows(s.stream, s.device_out.data() + c * out_plane + t.out_first, out_pitch_,
                           s.tile->data() + c * tile_plane + skip, tile_pitch_, t.out_count, out_rows);
        }
    }
}

HostRows CudaWorker::output(int slot, const Span &band) {
    CudaSlot &s = *slots_[slot];
    s.downloaded.wait();
    times_.upload += s.uploaded.ms_since(s.began);
    times_.kernel += s.filtered.ms_since(s.uploaded);
    times_.download += s.downloaded.ms_since(s.filtered);
    times_.device_span = std::max(times_.device_span, s.downloaded.ms_since(*firsts_[s.device]));
    return {s.host_out.data(), plan_.out_width, static_cast<std::ptrdiff_t>(plan_.out_width) * band.out_count};
}

}  // namespace

std::unique_ptr<BandWorker> make_cuda_band_worker(const Variant &variant, const ParamValues &params,
                                                  const StreamPlan &plan, int slots, int devices) {
    cuda::primary_context();
    const int visible = cuda::device_count();
    if (devices == 0) devices = visible;
    if (devices < 0 || devices > visible) {
        throw Error("cannot spread the bands over " + std::to_string(devices) + " GPUs: " + std::to_string(visible) +
                    " visible");
    }
    if (devices > 1 && variant.kind == Kind::peer) {
        throw Error(variant.filter + "/" + variant.name + " is a peer whose library keeps one device: it runs on one GPU");
    }
    return std::make_unique<CudaWorker>(variant, params, plan, slots, devices);
}

}  // namespace filterlab::stream
