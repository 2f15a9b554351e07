#include "concurrency_calls.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <fmt/format.h>
#include <map>

#include "filters.h"
#include "noise.h"
#include "variant_params.h"

namespace filterlab::concurrency {
namespace {

constexpr uint8_t kPoison = 0xA5;

std::size_t sample_index(const ImageRef &r, int x, int y, int c) {
    if (r.layout == Layout::interleaved) return y * r.row_pitch + x * r.channels + c;
    return (static_cast<std::size_t>(c) * r.height + y) * r.row_pitch + x;
}

CallerImage caller_image(int w, int h, int c, Layout layout, int pad) {
    CallerImage image;
    const int row = (layout == Layout::interleaved ? w * c : w) + pad;
    image.bytes.assign(static_cast<std::size_t>(row) * h * (layout == Layout::planar ? c : 1), kPoison);
    image.ref = {image.bytes.data(), w, h, c, row, layout};
    return image;
}

void fill(CallerImage &image, const Image &from) {
    for (int c = 0; c < from.channels(); c++)
        for (int y = 0; y < from.height(); y++)
            for (int x = 0; x < from.width(); x++) image.bytes[sample_index(image.ref, x, y, c)] = from.at(x, y, c);
}

Image read(const CallerImage &image) {
    const ImageRef &r = image.ref;
    Image out(r.width, r.height, r.channels);
    for (int c = 0; c < r.channels; c++)
        for (int y = 0; y < r.height; y++)
            for (int x = 0; x < r.width; x++) out.at(x, y, c) = image.bytes[sample_index(r, x, y, c)];
    return out;
}

bool padding_untouched(const CallerImage &image) {
    const ImageRef &r = image.ref;
    const int row = r.layout == Layout::interleaved ? r.width * r.channels : r.width;
    for (std::size_t i = 0; i < image.bytes.size(); i++)
        if (static_cast<int>(i % r.row_pitch) >= row && image.bytes[i] != kPoison) return false;
    return true;
}

// The caller's device copy of `image`, on `stream` (stream-ordered memory).
bool to_device(CallerImage &image, cudaStream_t stream) {
    if (cudaMallocAsync(reinterpret_cast<void **>(&image.device), image.bytes.size(), stream) != cudaSuccess) return false;
    image.ref.data = image.device;
    image.ref.memory = Memory::cuda_device;
    return cudaMemcpyAsync(image.device, image.bytes.data(), image.bytes.size(), cudaMemcpyHostToDevice, stream) ==
           cudaSuccess;
}

// What a bad call's message must contain: the call's own number, as its mistake spells it.
std::string own_words(const Issued &i) {
    const Call &c = i.call;
    switch (c.bad) {
    case Bad::unknown_parameter: return fmt::format("'p{}'", c.id);
    case Bad::unknown_variant: return fmt::format("'nonesuch_{}'", c.id);
    case Bad::output_size: return fmt::format("got {}x{} with", i.out.ref.width, i.out.ref.height);
    case Bad::none: break;
    }
    return "";
}

std::string verdict(const Issued &i) {
    if (!i.setup_error.empty()) return "the test's own CUDA call failed: " + i.setup_error;
    const Call &c = i.call;
    const bool untouched = std::all_of(i.out.bytes.begin(), i.out.bytes.end(), [](uint8_t b) { return b == kPoison; });
    if (c.bad != Bad::none) {
        if (i.outcome.ok) return "a bad call succeeded";
        if (i.outcome.message.find(own_words(i)) == std::string::npos) {
            return "the message is not this call's own (wanted \"" + own_words(i) + "\"): " + i.outcome.message;
        }
        return untouched ? "" : "a failed call wrote its output";
    }
    if (!i.outcome.ok) return "failed: " + i.outcome.message;
    const FilterInfo &info = filter_info(c.target.filter);
    if (!compare_to_reference(info, *c.expected, read(i.out)).equal) return "the output differs from the reference";
    return padding_untouched(i.out) ? "" : "the output's padding was written";
}

}  // namespace

Target target_of(const VariantInfo &variant) { return {variant.filter, variant.name, good_params(variant)}; }

Issued issue(const Call &call, void *stream_handle) {
    Issued i;
    i.call = call;
    i.stream = stream_handle;
    const auto stream = static_cast<cudaStream_t>(stream_handle);
    const FilterInfo &info = filter_info(call.target.filter);
    auto [ow, oh] = info.output_size(call.width, call.height);
    if (call.bad == Bad::output_size) ow += call.id;
    i.in = caller_image(call.width, call.height, call.channels, call.layout, call.pad);
    i.out = caller_image(ow, oh, call.channels, call.layout, call.pad);
    fill(i.in, *call.input);
    if (call.on_device && !(to_device(i.in, stream) && to_device(i.out, stream))) {
        i.setup_error = cudaGetErrorString(cudaGetLastError());
        return i;
    }
    std::map<std::string, double> params = call.target.params;
    if (call.bad == Bad::unknown_parameter) params["p" + std::to_string(call.id)] = 1;
    Options options;
    options.variant = call.bad == Bad::unknown_variant ? "nonesuch_" + std::to_string(call.id) : call.target.variant;
    options.cuda_stream = stream_handle;
    i.outcome = run(call.target.filter, i.in.ref, i.out.ref, params, options);
    return i;
}

std::string finish(Issued &i) {
    if (i.call.on_device && i.setup_error.empty()) {
        const auto stream = static_cast<cudaStream_t>(i.stream);
        cudaError_t status = cudaMemcpyAsync(i.out.bytes.data(), i.out.device, i.out.bytes.size(),
                                             cudaMemcpyDeviceToHost, stream);
        cudaFreeAsync(i.in.device, stream);
        cudaFreeAsync(i.out.device, stream);
        if (status == cudaSuccess) status = cudaStreamSynchronize(stream);
        if (status != cudaSuccess) i.setup_error = cudaGetErrorString(status);
    }
    return verdict(i);
}

std::string describe(const Call &c) {
    static const char *bad_names[] = {"good", "unknown parameter", "unknown variant", "wrong output size"};
    return fmt::format("{}/{} {}x{}x{} {} {} pad {} stream {} ({} call {})", c.target.filter, c.target.variant, c.width,
                       c.height, c.channels, c.layout == Layout::planar ? "planar" : "interleaved",
                       c.on_device ? "device" : "host", c.pad, c.stream_index, bad_names[static_cast<int>(c.bad)],
                       c.id);
}

std::string device_missing(const Target &target) {
    const FilterInfo &info = filter_info(target.filter);
    const Image input = random_image(8, 8, 1, 1);
    CallerImage in = caller_image(8, 8, 1, Layout::planar, 0);
    fill(in, input);
    const auto [ow, oh] = info.output_size(8, 8);
    CallerImage out = caller_image(ow, oh, 1, Layout::planar, 0);
    Options options;
    options.variant = target.variant;
    const Outcome r = run(target.filter, in.ref, out.ref, {}, options);
    if (r.ok) return "";
    for (const char *why : {"no GPU", "no OpenCL device"})
        if (r.message.find(why) != std::string::npos) return r.message;
    return "";
}

}  // namespace filterlab::concurrency
