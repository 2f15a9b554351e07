#include "band_workers.h"

#include <chrono>
#include <cstring>
#include <vector>

#include "band_extents.h"
#include "error.h"

namespace filterlab::stream {
namespace {

class HostWorker : public BandWorker {
public:
    HostWorker(const Variant &v, const ParamValues &params, const StreamPlan &plan, int slots)
        : variant_(v), params_(params), plan_(plan), filter_(filter_info(v.filter)), extents_(filter_, plan) {
        const int ch = plan.channels;
        for (int s = 0; s < slots; s++) {
            in_.emplace_back(static_cast<std::size_t>(plan.width) * extents_.max_in_rows * ch);
            out_.emplace_back(static_cast<std::size_t>(plan.out_width) * extents_.max_out_rows * ch);
        }
        if (plan.tiles.size() > 1) tile_.resize(static_cast<std::size_t>(extents_.max_tile_out) * extents_.max_out_rows * ch);
    }
    int slots() const override { return static_cast<int>(in_.size()); }
    uint8_t *input(int slot) override { return in_[slot].data(); }
    void compute(int slot, const Span &band) override {
        const auto start = std::chrono::steady_clock::now();
        const int rows = band.in_count(), ch = plan_.channels;
        const int out_rows = band_out_rows(filter_, plan_, rows);
        const std::ptrdiff_t in_plane = static_cast<std::ptrdiff_t>(plan_.width) * rows;
        const std::ptrdiff_t out_plane = static_cast<std::ptrdiff_t>(plan_.out_width) * out_rows;
        for (const Span &t : plan_.tiles) {
            const PlanarView in{in_[slot].data() + t.in_first, t.in_count(), rows, ch, plan_.width, in_plane};
            const int tile_out = filter_.output_size(t.in_count(), rows).first;
            if (plan_.tiles.size() == 1) {
                variant_.run(in, {out_[slot].data(), tile_out, out_rows, ch, plan_.out_width, out_plane}, params_);
                continue;
            }
            const std::ptrdiff_t tile_plane = static_cast<std::ptrdiff_t>(tile_out) * out_rows;
            variant_.run(in, {tile_.data(), tile_out, out_rows, ch, tile_out, tile_plane}, params_);
            const int skip = kept_from(plan_, t);
            for (int c = 0; c < ch; c++)
                for (int y = 0; y < out_rows; y++) {
                    std::memcpy(out_[slot].data() + c * out_plane + static_cast<std::ptrdiff_t>(y) * plan_.out_width + t.out_first,
                                tile_.data() + c * tile_plane + static_cast<std::ptrdiff_t>(y) * tile_out + skip, t.out_count);
                }
        }
        times_.kernel += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
    HostRows output(int slot, const Span &band) override {
        const int out_rows = band_out_rows(filter_, plan_, band.in_count());
        const int keep = kept_from(plan_, band);
        return {out_[slot].data() + static_cast<std::ptrdiff_t>(keep) * plan_.out_width, plan_.out_width,
                static_cast<std::ptrdiff_t>(plan_.out_width) * out_rows};
    }
    ComputeTimes times() const override { return times_; }
    std::size_t host_bytes() const override {
        return in_.size() * (in_.front().size() + out_.front().size()) + tile_.size();
    }

private:
    const Variant &variant_;
    const ParamValues &params_;
    const StreamPlan &plan_;
    const FilterInfo &filter_;
    Extents extents_;
    std::vector<std::vector<uint8_t>> in_, out_;
    std::vector<uint8_t> tile_;
    ComputeTimes times_;
};

}  // namespace

std::unique_ptr<BandWorker> make_band_worker(const Variant &variant, const ParamValues &params,
                                             const StreamPlan &plan, int slots, int gpus) {
    if (variant.backend == Backend::cpu && gpus > 1) {  // 0, every visible GPU: none needed
        throw Error(variant.filter + "/" + variant.name + " runs on the CPU: only a CUDA variant's bands go to GPUs");
    }
    if (variant.backend == Backend::cpu) return std::make_unique<HostWorker>(variant, params, plan, slots);
    if (variant.backend == Backend::cuda) return make_cuda_band_worker(variant, params, plan, slots, gpus);
    throw Error(variant.filter + "/" + variant.name + ": " + to_string(variant.backend) +
                " variants are not streamed in bands");
}

}  // namespace filterlab::stream
