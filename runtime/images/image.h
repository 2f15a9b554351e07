// The in-memory image: 8-bit samples, planar (x fastest, then y, then channel),
// the layout every variant receives. Files are interleaved; see image_io.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "image_shape.h"

namespace filterlab {

// Largest image accepted anywhere: sides up to 2^16 (kMaxSide, image_shape.h)
// and at most 2^30 samples, so every offset fits the 32-bit strides of halide_buffer_t.
constexpr long long kMaxSamples = 1LL << 30;

// Throws Error unless 1 <= width, height <= kMaxSide, channels is 1 or 3 and
// the sample count is at most kMaxSamples.
void check_image_shape(long long width, long long height, long long channels);

// A non-owning planar view of host or device memory.
struct PlanarView {
    uint8_t *data = nullptr;
    int width = 0, height = 0, channels = 0;
    std::ptrdiff_t row_stride = 0, plane_stride = 0;  // in samples
};

// An image in device memory, CUDA or OpenCL alike: planar, each row padded to
// a multiple of kAlignedPitch (image_shape.h; rows start 16-byte aligned), kGuardBytes of guard
// before and after the image (256: the image stays 256-byte aligned, as an
// OpenCL sub-buffer's origin must be). Padding and guards are part of the
// allocation, which lets the harness detect writes outside the image.
struct DeviceLayout {
    static constexpr std::size_t kGuardBytes = 256;
    static std::size_t row_pitch(int width) {  // every device image's rows pitched as the aligned class's
        constexpr std::size_t unit = kAlignedPitch;
        return (static_cast<std::size_t>(width) + unit - 1) / unit * unit;
    }
    static std::size_t allocation_bytes(int width, int height, int channels) {
        return row_pitch(width) * height * channels + 2 * kGuardBytes;
    }
};

class Image {
public:
    Image() = default;
    Image(int width, int height, int channels, uint8_t fill = 0);

    int width() const { return width_; }
    int height() const { return height_; }
    int channels() const { return channels_; }
    std::size_t size() const { return data_.size(); }

    uint8_t &at(int x, int y, int c) { return data_[index(x, y, c)]; }
    uint8_t at(int x, int y, int c) const { return data_[index(x, y, c)]; }
    // The clamp border rule of FILTERS.md.
    uint8_t clamped(int x, int y, int c) const;

    uint8_t *row(int y, int c) { return data_.data() + index(0, y, c); }
    const uint8_t *row(int y, int c) const { return data_.data() + index(0, y, c); }
    uint8_t *data() { return data_.data(); }
    const uint8_t *data() const { return data_.data(); }
    std::vector<uint8_t> &samples() { return data_; }
    const std::vector<uint8_t> &samples() const { return data_; }

    PlanarView view();
    PlanarView view() const;  // for inputs: variants never write through it

    bool operator==(const Image &other) const = default;

private:
    std::size_t index(int x, int y, int c) const {
        return (static_cast<std::size_t>(c) * height_ + y) * width_ + x;
    }
    int width_ = 0, height_ = 0, channels_ = 0;
    std::vector<uint8_t> data_;
};

// Layout conversions: interleaved is (c fastest, then x, then y), as in files.
std::vector<uint8_t> to_interleaved(const Image &image);
Image from_interleaved(const uint8_t *samples, int width, int height, int channels);

}  // namespace filterlab
