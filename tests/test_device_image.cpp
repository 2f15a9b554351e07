// DeviceImageBase's layout logic on host memory standing in for a device's,
// so that it is checked on any machine; the backends' own memory is checked
// by test_variants (--backend=cuda, --backend=opencl) with the same checks.
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "device_image.h"
#include "device_image_checks.h"

using namespace filterlab;

namespace {

// `last` lets a test see the bytes behind the latest image's view.
class HostMemory final : public DeviceImageMemory {
public:
    static inline const HostMemory *last = nullptr;
    HostMemory(std::size_t bytes, std::size_t image_offset) : bytes_(bytes) {
        image_ = bytes_.data() + image_offset;
        last = this;
    }
    void write_rows(std::size_t offset, std::size_t pitch, const uint8_t *host, std::size_t width,
                    std::size_t rows) override {
        for (std::size_t r = 0; r < rows; r++) std::memcpy(&bytes_.at(offset + r * pitch), host + r * width, width);
    }
    void read_rows(std::size_t offset, std::size_t pitch, uint8_t *host, std::size_t width,
                   std::size_t rows) const override {
        for (std::size_t r = 0; r < rows; r++) std::memcpy(host + r * width, &bytes_.at(offset + r * pitch), width);
    }
    void read(uint8_t *host, std::size_t bytes) const override { std::memcpy(host, bytes_.data(), bytes); }
    void fill(uint8_t value, std::size_t bytes) override { std::memset(bytes_.data(), value, bytes); }
    const uint8_t *base() const { return bytes_.data(); }

private:
    std::vector<uint8_t> bytes_;
};

std::unique_ptr<DeviceImageMemory> make_host_memory(std::size_t bytes, std::size_t image_offset, std::size_t) {
    return std::make_unique<HostMemory>(bytes, image_offset);
}

class HostImage : public DeviceImageBase {
public:
    HostImage(int width, int height, int channels) : DeviceImageBase(width, height, channels, make_host_memory) {}
};

}  // namespace

TEST_CASE("device image: guards, pitched rows and planes, on host memory") {
    device_image_checks::check_layouts<HostImage>();
    const HostImage image(70, 5, 1);  // the view's data: the image, kGuardBytes into the allocation
    CHECK(image.view().data == HostMemory::last->base() + DeviceLayout::kGuardBytes);
}
