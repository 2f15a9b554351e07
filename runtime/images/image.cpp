#include "image.h"

#include <algorithm>
#include <string>

#include "error.h"

namespace filterlab {

void check_image_shape(long long width, long long height, long long channels) {
    if (channels != 1 && channels != 3) {
        throw Error("unsupported channel count " + std::to_string(channels) + " (1 or 3 expected)");
    }
    if (width < 1 || height < 1) {
        throw Error("empty image (" + std::to_string(width) + "x" + std::to_string(height) + ")");
    }
    if (width > kMaxSide || height > kMaxSide || width * height * channels > kMaxSamples) {
        throw Error("image too large: " + std::to_string(width) + "x" + std::to_string(height) + "x" +
                    std::to_string(channels) + " (at most " + std::to_string(kMaxSide) +
                    " per side and " + std::to_string(kMaxSamples) + " samples)");
    }
}

Image::Image(int width, int height, int channels, uint8_t fill)
    : width_(width), height_(height), channels_(channels) {
    check_image_shape(width, height, channels);
    data_.assign(static_cast<std::size_t>(width) * height * channels, fill);
}

uint8_t Image::clamped(int x, int y, int c) const {
    return at(std::clamp(x, 0, width_ - 1), std::clamp(y, 0, height_ - 1), c);
}

PlanarView Image::view() {
    return {data_.data(), width_, height_, channels_, width_,
            static_cast<std::ptrdiff_t>(width_) * height_};
}

PlanarView Image::view() const { return const_cast<Image *>(this)->view(); }

std::vector<uint8_t> to_interleaved(const Image &image) {
    const int w = image.width(), h = image.height(), ch = image.channels();
    std::vector<uint8_t> out(image.size());
    for (int c = 0; c < ch; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                out[(static_cast<std::size_t>(y) * w + x) * ch + c] = image.at(x, y, c);
    return out;
}

Image from_interleaved(const uint8_t *samples, int width, int height, int channels) {
    Image image(width, height, channels);
    for (int c = 0; c < channels; c++)
        for (int y = 0; y < height; y++)
            for (int x = 0; x < width; x++)
                image.at(x, y, c) = samples[(static_cast<std::size_t>(y) * width + x) * channels + c];
    return image;
}

}  // namespace filterlab
