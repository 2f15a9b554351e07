#include "batch_timing.h"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>

#include "harness.h"
#include "noise.h"

namespace filterlab {

std::size_t device_image_bytes(const BatchShape &b, int channels) {
    return DeviceLayout::allocation_bytes(b.width, b.height, channels);
}

DeviceBatch::DeviceBatch(const std::vector<Image> &in, const BatchShape &out, int channels)
    : input_bytes_(in.at(0).size()),
      output_bytes_(out.image_bytes(channels)),
      pinned_inputs_(in.size() * input_bytes_),
      pinned_outputs_(in.size() * output_bytes_) {
    for (std::size_t i = 0; i < in.size(); i++) {
        inputs.push_back(std::make_unique<cuda::DeviceImage>(in[i].width(), in[i].height(), channels));
        outputs.push_back(std::make_unique<cuda::DeviceImage>(out.width, out.height, channels));
        std::memcpy(pinned_inputs_.data() + i * input_bytes_, in[i].data(), input_bytes_);
    }
}

Image check_first_image(const Variant &v, const FilterInfo &f, const Image &reference, const Image &input,
                        BatchResult &r) {
    Image output = run_variant(v, input, r.params);
    const Comparison cmp = compare_to_reference(f, reference, output);
    if (cmp.equal) return output;
    if (v.computes_contract) {
        r.status = Status::wrong;
        r.note = cmp.describe();
    } else {
        r.status = Status::differs;
        r.note = fmt::format("not the contract's function: {}; PSNR {:.1f} dB against the reference", cmp.describe(),
                             psnr(reference, output));
    }
    return output;
}

void time_cpu_batch(const BenchOptions &o, const std::vector<Image> &inputs, std::vector<Image> &outputs,
                    BatchResult &r) {
    r.ms[Phase::kernel] = repeat(o, [&] {
        const auto start = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < inputs.size(); i++) r.variant->run(inputs[i].view(), outputs[i].view(), r.params);
        return ms_since(start);
    });
}

void time_cuda_batch(const BenchOptions &o, const std::vector<Image> &inputs, std::vector<Image> &outputs,
                     DeviceBatch &d, BatchResult &r) {
    const int n = d.size();
    auto upload_pageable = [&] {
        for (int i = 0; i < n; i++) cuda::copy_to_device(inputs[i].data(), d.inputs[i]->view());
    };
    auto upload_pinned = [&] {
        for (int i = 0; i < n; i++) cuda::copy_to_device(d.pinned_input(i), d.inputs[i]->view());
    };
    auto kernels = [&] {
        for (int i = 0; i < n; i++) r.variant->run(d.inputs[i]->view(), d.outputs[i]->view(), r.params);
    };
    auto download_pageable = [&] {
        for (int i = 0; i < n; i++) cuda::copy_to_host(d.outputs[i]->view(), outputs[i].data());
    };
    auto download_pinned = [&] {
        for (int i = 0; i < n; i++) cuda::copy_to_host(d.outputs[i]->view(), d.pinned_output(i));
    };
    // Every step is queued on the default stream between the two events; the
    // stop event waits for the last, so a sample is the batch's device time.
    cuda::EventTimer timer;
    auto timed = [&](auto &&...steps) {
        return repeat(o, [&] {
            timer.start();
            (steps(), ...);
            return timer.stop_ms();
        });
    };
    r.ms[Phase::h2d_pageable] = timed(upload_pageable);
    r.ms[Phase::h2d_pinned] = timed(upload_pinned);  // the inputs stay on the device for the kernels
    r.ms[Phase::kernel] = timed(kernels);
    r.ms[Phase::d2h_pageable] = timed(download_pageable);
    r.ms[Phase::d2h_pinned] = timed(download_pinned);
    r.ms[Phase::total_pageable] = timed(upload_pageable, kernels, download_pageable);
    r.ms[Phase::total_pinned] = timed(upload_pinned, kernels, download_pinned);
    // The same work, image i on stream i mod kOverlapStreams (the variant
    // launches on the stream named by StreamScope): copies overlap kernels.
    // Timed last, so the pinned outputs checked afterwards are its own.
    cuda::StreamSet streams(kOverlapStreams);
    auto overlapped = [&] {
        for (int i = 0; i < n; i++) {
            void *stream = streams[i % streams.size()];
            cuda::copy_to_device(d.pinned_input(i), d.inputs[i]->view(), stream);
            const cuda::StreamScope scope(stream);
            r.variant->run(d.inputs[i]->view(), d.outputs[i]->view(), r.params);
            cuda::copy_to_host(d.outputs[i]->view(), d.pinned_output(i), stream);
        }
    };
    r.ms[Phase::total_streams] = timed(overlapped);
    cuda::synchronize("after the batch");  // a launch error surfaces here at the latest
}

void check_batch_outputs(const Image &checked, const std::vector<Image> &outputs, const DeviceBatch *device,
                         BatchResult &r) {
    auto differs = [&](const std::string &which) {
        r.status = Status::error;
        r.note = "the batch's output of " + which + " differs from the checked run of the same input";
    };
    if (outputs.front() != checked) return differs(device ? "image 1 (downloaded to pageable memory)" : "image 1");
    if (!device) return;
    const int n = device->size();
    if (!std::equal(checked.samples().begin(), checked.samples().end(), device->pinned_output(0))) {
        return differs("image 1 (downloaded to pinned memory)");
    }
    const Image &last = outputs.back();
    if (!std::equal(last.samples().begin(), last.samples().end(), device->pinned_output(n - 1))) {
        return differs(fmt::format("image {} (downloaded to pinned memory, against pageable)", n));
    }
}

}  // namespace filterlab
