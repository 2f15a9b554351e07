// The measurements of `bench --batch` for one variant (see bench_batch.h):
// the check before timing, the timed phases of a batch, and the check of the
// batch's own outputs.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.h"
#include "cuda_batch.h"
#include "cuda_support.h"
#include "filters.h"
#include "image.h"
#include "registry.h"

namespace filterlab {

struct BatchShape {
    int images, width, height;
    std::size_t image_bytes(int channels) const { return std::size_t(width) * height * channels; }
    BatchShape output_of(const FilterInfo &f) const {
        const auto [w, h] = f.output_size(width, height);
        return {images, w, h};
    }
};

// Bytes of one DeviceImage of this shape (DeviceLayout, image.h).
std::size_t device_image_bytes(const BatchShape &b, int channels);

// The timed steps of a batch, in the order of the columns of batch.csv
// (Phase::kernel indexes BatchResult::ms).
struct Phase {
    enum : int {
        to_planar,       // host: the N inputs, interleaved to planar
        to_interleaved,  // host: the N outputs, planar to interleaved
        h2d_pageable,    // the N uploads from pageable memory
        h2d_pinned,      // ... from pinned memory
        kernel,          // the N calls of the variant (CUDA: launches, by events; CPU: the calls)
        d2h_pageable,    // the N downloads to pageable memory
        d2h_pinned,      // ... to pinned memory
        total_pageable,  // uploads + kernels + downloads, pageable, end to end
        total_pinned,    // ... pinned
        total_streams,   // ... pinned, each image's upload, kernels and download on one of kOverlapStreams streams
        count
    };
};
constexpr std::array<const char *, Phase::count> kPhaseNames = {
    "to_planar",  "to_interleaved", "h2d_pageable", "h2d_pinned",   "kernel",
    "d2h_pageable", "d2h_pinned",   "total_pageable", "total_pinned", "total_streams"};
// Streams of the overlapped end-to-end phase: while one image's kernels run,
// the next one's upload and the previous one's download can (the H100 has a
// copy engine each way).
constexpr int kOverlapStreams = 3;

struct BatchResult {
    const Variant *variant;
    int channels;
    ParamValues params;
    Status status = Status::ok;
    std::string note;
    std::array<Stats, Phase::count> ms{};  // milliseconds per batch; samples == 0: not measured
};

inline double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// The device side of one filter's batch: every input and output in device
// memory at once, and pinned host copies of the inputs and room for the
// outputs, image after image, dense planar.
class DeviceBatch {
public:
    DeviceBatch(const std::vector<Image> &inputs, const BatchShape &out, int channels);
    int size() const { return static_cast<int>(inputs.size()); }
    const uint8_t *pinned_input(int i) const { return pinned_inputs_.data() + i * input_bytes_; }
    uint8_t *pinned_output(int i) const { return pinned_outputs_.data() + i * output_bytes_; }

    std::vector<std::unique_ptr<cuda::DeviceImage>> inputs, outputs;

private:
    std::size_t input_bytes_, output_bytes_;
    cuda::PinnedBuffer pinned_inputs_, pinned_outputs_;
};

// Runs the variant on the batch's first image through the harness and
// compares with the reference: sets r.status to wrong (not to be timed) or,
// for a peer documented to compute another function, differs (timed). Returns
// the variant's output.
Image check_first_image(const Variant &v, const FilterInfo &f, const Image &reference, const Image &input,
                        BatchResult &r);

// Fill r.ms[kernel] (CPU), or every transfer, kernel and end-to-end phase
// (CUDA). `outputs` (host, planar) receive the batch's outputs.
void time_cpu_batch(const BenchOptions &o, const std::vector<Image> &inputs, std::vector<Image> &outputs,
                    BatchResult &r);
void time_cuda_batch(const BenchOptions &o, const std::vector<Image> &inputs, std::vector<Image> &outputs,
                     DeviceBatch &device, BatchResult &r);

// The batch's outputs against the checked output of the first image (and, for
// CUDA, the last image by both downloads): a wrong offset or pitch in the
// batch's own copies sets r.status to error.
void check_batch_outputs(const Image &checked, const std::vector<Image> &outputs, const DeviceBatch *device,
                         BatchResult &r);

}  // namespace filterlab
