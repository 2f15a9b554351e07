#include "harness.h"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>

#include "cuda_support.h"
#include "error.h"
#include "opencl_support.h"

namespace filterlab {
namespace {

constexpr std::size_t kGuardBytes = 64;

void check_guards(const std::vector<uint8_t> &bytes, std::size_t begin, std::size_t end, uint8_t poison,
                  const Variant &v) {
    for (std::size_t i = begin; i < end; i++) {
        if (bytes[i] != poison) throw Error(fmt::format("{}/{} wrote outside its output image", v.filter, v.name));
    }
}

Image run_on_host(const Variant &v, const Image &input, int out_w, int out_h, const ParamValues &params,
                  uint8_t poison) {
    const std::size_t samples = static_cast<std::size_t>(out_w) * out_h * input.channels();
    // The output with guard bytes on both sides, all poisoned.
    std::vector<uint8_t> storage(samples + 2 * kGuardBytes, poison);
    PlanarView out{storage.data() + kGuardBytes, out_w, out_h, input.channels(), out_w,
                   static_cast<std::ptrdiff_t>(out_w) * out_h};
    v.run(input.view(), out, params);
    check_guards(storage, 0, kGuardBytes, poison, v);
    check_guards(storage, kGuardBytes + samples, storage.size(), poison, v);
    return image_from_view(out);
}

// The device path of both GPU backends: DeviceImage is cuda::DeviceImage or
// opencl::DeviceImage (the same layout: rows padded, guards around).
template <typename DeviceImage>
Image run_on_device(const Variant &v, const Image &input, int out_w, int out_h, const ParamValues &params,
                    uint8_t poison, void (*synchronize)(const char *)) {
    // The input's padding and guards hold poison too: a kernel that reads them
    // instead of clamping reads garbage, not a plausible copy of the edge.
    DeviceImage in(input.width(), input.height(), input.channels());
    in.fill(poison);
    in.upload(input);
    DeviceImage out(out_w, out_h, input.channels());
    out.fill(poison);
    v.run(in.view(), out.view(), params);
    synchronize("after the variant");
    // Every byte of the allocation outside the image must be untouched.
    const std::vector<uint8_t> bytes = out.download_all();
    const std::size_t pitch = out.row_pitch(), guard = DeviceImage::kGuardBytes;
    check_guards(bytes, 0, guard, poison, v);
    check_guards(bytes, bytes.size() - guard, bytes.size(), poison, v);
    Image result(out_w, out_h, input.channels());
    for (int c = 0; c < input.channels(); c++)
        for (int y = 0; y < out_h; y++) {
            const std::size_t row = guard + (static_cast<std::size_t>(c) * out_h + y) * pitch;
            std::memcpy(result.row(y, c), &bytes[row], out_w);
            check_guards(bytes, row + out_w, row + pitch, poison, v);
        }
    return result;
}

}  // namespace

Image image_from_view(const PlanarView &view) {
    Image image(view.width, view.height, view.channels);
    for (int c = 0; c < view.channels; c++)
        for (int y = 0; y < view.height; y++)
            std::memcpy(image.row(y, c), view.data + c * view.plane_stride + y * view.row_stride, view.width);
    return image;
}

void copy_to_view(const Image &image, const PlanarView &view) {
    for (int c = 0; c < view.channels; c++)
        for (int y = 0; y < view.height; y++)
            std::memcpy(view.data + c * view.plane_stride + y * view.row_stride, image.row(y, c), view.width);
}

void check_can_run(const Variant &v, const ParamValues &params, int width, int height, int channels) {
    const FilterInfo &filter = filter_info(v.filter);
    if (std::string why = v.why_unavailable(); !why.empty()) throw Error(v.filter + "/" + v.name + ": " + why);
    filter.validate(params);
    if (std::string why = v.unsupported_reason(params, width, height, channels); !why.empty()) throw Error(why);
    if (width < filter.min_side || height < filter.min_side) {
        throw Error(fmt::format("{} needs an image of at least {}x{}, got {}x{}", filter.name, filter.min_side,
                                filter.min_side, width, height));
    }
}

Image run_variant(const Variant &v, const Image &input, const ParamValues &params, uint8_t poison) {
    check_can_run(v, params, input.width(), input.height(), input.channels());
    const FilterInfo &filter = filter_info(v.filter);
    const auto [out_w, out_h] = filter.output_size(input.width(), input.height());
    if (v.backend == Backend::cuda) {
        return run_on_device<cuda::DeviceImage>(v, input, out_w, out_h, params, poison, cuda::synchronize);
    }
    if (v.backend == Backend::opencl) {
        return run_on_device<opencl::DeviceImage>(v, input, out_w, out_h, params, poison, opencl::finish);
    }
    return run_on_host(v, input, out_w, out_h, params, poison);
}

}  // namespace filterlab
