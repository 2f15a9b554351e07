#include "noise.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "error.h"

namespace filterlab {

uint64_t SeededRandom::next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

double SeededRandom::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

double SeededRandom::normal() {
    const double u1 = 1.0 - uniform();  // (0, 1]
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

void add_salt_and_pepper(Image &image, double density, uint64_t seed) {
    if (!(density >= 0 && density <= 1)) throw Error("salt-and-pepper density must be in [0, 1]");
    SeededRandom random(seed);
    for (int y = 0; y < image.height(); y++)
        for (int x = 0; x < image.width(); x++) {
            if (random.uniform() >= density) continue;
            const uint8_t value = random.uniform() < 0.5 ? 0 : 255;
            for (int c = 0; c < image.channels(); c++) image.at(x, y, c) = value;
        }
}

void add_gaussian_noise(Image &image, double sigma, uint64_t seed) {
    if (!(sigma >= 0 && sigma <= 1000)) throw Error("Gaussian noise sigma must be in [0, 1000]");
    SeededRandom random(seed);
    for (auto &sample : image.samples()) {
        const double value = std::round(sample + sigma * random.normal());
        sample = static_cast<uint8_t>(std::clamp(value, 0.0, 255.0));
    }
}

Image random_image(int width, int height, int channels, uint64_t seed) {
    Image image(width, height, channels);
    SeededRandom random(seed);
    for (auto &sample : image.samples()) sample = static_cast<uint8_t>(random.next() >> 56);
    return image;
}

double psnr(const Image &reference, const Image &test) {
    if (reference.width() != test.width() || reference.height() != test.height() ||
        reference.channels() != test.channels()) {
        throw Error("PSNR needs two images of the same size");
    }
    double squared = 0;
    for (std::size_t i = 0; i < reference.size(); i++) {
        const double d = double(reference.samples()[i]) - double(test.samples()[i]);
        squared += d * d;
    }
    if (squared == 0) return std::numeric_limits<double>::infinity();
    return 10 * std::log10(255.0 * 255.0 / (squared / reference.size()));
}

}  // namespace filterlab
