// What every device image must hold, whatever memory it is in (shared by
// test_device_image.cpp, on a host stand-in, and test_variants.cpp, on the
// backend's own device): the layout DeviceImageBase writes and reads back.
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "device_image.h"
#include "error.h"
#include "noise.h"

namespace device_image_checks {

// After fill then upload: the guards and each row's padding hold the filled
// value, the rows stand at their pitch, plane after plane; download gives the
// image back, and an image of another shape is refused.
template <typename Device>
void check_layout(int width, int height, int channels) {
    using namespace filterlab;
    CAPTURE(width);
    CAPTURE(height);
    CAPTURE(channels);
    const Image image = random_image(width, height, channels, 7);
    Device device(width, height, channels);
    device.fill(0xA5);
    device.upload(image);
    const std::size_t pitch = device.row_pitch(), guard = Device::kGuardBytes;
    CHECK(pitch == DeviceLayout::row_pitch(width));
    const std::vector<uint8_t> all = device.download_all();
    REQUIRE(all.size() == DeviceLayout::allocation_bytes(width, height, channels));
    for (std::size_t i = 0; i < guard; i++) REQUIRE((all[i] == 0xA5 && all[all.size() - 1 - i] == 0xA5));
    for (int c = 0; c < channels; c++)
        for (int y = 0; y < height; y++) {
            const uint8_t *row = &all[guard + (static_cast<std::size_t>(c) * height + y) * pitch];
            REQUIRE(std::memcmp(row, image.row(y, c), width) == 0);
            for (std::size_t x = width; x < pitch; x++) REQUIRE(row[x] == 0xA5);
        }
    CHECK(device.download() == image);
    const PlanarView view = device.view();
    CHECK(view.data != nullptr);
    CHECK((view.width == width && view.height == height && view.channels == channels));
    CHECK(view.row_stride == static_cast<std::ptrdiff_t>(pitch));
    CHECK(view.plane_stride == view.row_stride * height);
    CHECK_THROWS_AS(device.upload(Image(width + 1, height, channels)), Error);
}

// The shapes each backend is checked on: padded RGB, a width at the pitch
// (no padding), an odd gray one wider than a pitch.
template <typename Device>
void check_layouts() {
    check_layout<Device>(70, 5, 3);
    check_layout<Device>(128, 3, 1);
    check_layout<Device>(1001, 17, 1);
}

}  // namespace device_image_checks
