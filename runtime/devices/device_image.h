// An image in device memory, CUDA or OpenCL alike, laid out as DeviceLayout
// says (image.h): what follows from the layout (the view, uploads, downloads,
// fills) is written once here, over the few memory calls each API supplies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "image.h"

namespace filterlab {

// One device image's memory on one API: a single allocation with the image
// some bytes into it. Each backend implements it with its own calls
// (cuda_support.cu, opencl_support.cpp) and nothing else; offsets count bytes
// from the allocation's start. The copies are pitched, so that a whole image
// moves in one call of the API's own, not one call a row.
class DeviceImageMemory {
public:
    virtual ~DeviceImageMemory() = default;
    // `rows` rows of `width` bytes, packed in host memory, to (from) the
    // allocation's rows that start at `offset`, `pitch` bytes apart.
    virtual void write_rows(std::size_t offset, std::size_t pitch, const uint8_t *host, std::size_t width,
                            std::size_t rows) = 0;
    virtual void read_rows(std::size_t offset, std::size_t pitch, uint8_t *host, std::size_t width,
                           std::size_t rows) const = 0;
    virtual void read(uint8_t *host, std::size_t bytes) const = 0;  // the allocation's first `bytes`
    virtual void fill(uint8_t value, std::size_t bytes) = 0;        // likewise, done when it returns
    // What a view's `data` is: the image's address (CUDA) or its own cl_mem (OpenCL).
    uint8_t *image() const { return image_; }

protected:
    uint8_t *image_ = nullptr;  // set by the backend once its allocation is made
};

// The base of cuda::DeviceImage and opencl::DeviceImage, which only choose
// their memory: the layout's extents, and every operation over them.
class DeviceImageBase {
public:
    static constexpr std::size_t kGuardBytes = DeviceLayout::kGuardBytes;
    DeviceImageBase(const DeviceImageBase &) = delete;
    DeviceImageBase &operator=(const DeviceImageBase &) = delete;

    std::size_t row_pitch() const { return pitch_; }
    PlanarView view() const {
        return {image_, width_, height_, channels_, static_cast<std::ptrdiff_t>(pitch_),
                static_cast<std::ptrdiff_t>(pitch_ * height_)};
    }
    void upload(const Image &image);  // of the device image's extents
    Image download() const;
    void fill(uint8_t value);                   // the whole allocation, padding and guards included
    std::vector<uint8_t> download_all() const;  // guard, image rows with their padding, guard

protected:
    // Makes a backend's memory: the allocation's bytes, where the image starts in it, and the image's bytes.
    using MakeMemory = std::unique_ptr<DeviceImageMemory> (*)(std::size_t allocation_bytes, std::size_t image_offset,
                                                              std::size_t image_bytes);
    DeviceImageBase(int width, int height, int channels, MakeMemory make);
    ~DeviceImageBase() = default;

private:
    std::size_t rows() const { return static_cast<std::size_t>(height_) * channels_; }  // planes follow each other
    std::size_t allocation_bytes() const { return DeviceLayout::allocation_bytes(width_, height_, channels_); }

    int width_, height_, channels_;
    std::size_t pitch_;
    std::unique_ptr<DeviceImageMemory> memory_;
    uint8_t *image_;  // memory_->image(), kept so that view() costs no call
};

}  // namespace filterlab
