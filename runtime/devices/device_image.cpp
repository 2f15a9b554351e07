#include "device_image.h"

#include <fmt/format.h>

#include "error.h"

namespace filterlab {

DeviceImageBase::DeviceImageBase(int width, int height, int channels, MakeMemory make)
    : width_(width),
      height_(height),
      channels_(channels),
      pitch_(DeviceLayout::row_pitch(width)),
      memory_(make(allocation_bytes(), kGuardBytes, pitch_ * rows())),
      image_(memory_->image()) {}

void DeviceImageBase::upload(const Image &image) {
    // The copy reads the device image's extents from the host image: another
    // shape would read past its end or leave rows unwritten.
    if (image.width() != width_ || image.height() != height_ || image.channels() != channels_) {
        throw Error(fmt::format("upload of a {}x{}x{} image to a {}x{}x{} device image", image.width(), image.height(),
                                image.channels(), width_, height_, channels_));
    }
    memory_->write_rows(kGuardBytes, pitch_, image.data(), width_, rows());
}

Image DeviceImageBase::download() const {
    Image image(width_, height_, channels_);
    memory_->read_rows(kGuardBytes, pitch_, image.data(), width_, rows());
    return image;
}

void DeviceImageBase::fill(uint8_t value) { memory_->fill(value, allocation_bytes()); }

std::vector<uint8_t> DeviceImageBase::download_all() const {
    std::vector<uint8_t> bytes(allocation_bytes());
    memory_->read(bytes.data(), bytes.size());
    return bytes;
}

}  // namespace filterlab
