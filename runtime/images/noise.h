// Noise generators and quality figures of FILTERS.md. The generator is our own
// (SplitMix64), so the same seed gives the same image on every machine.
#pragma once

#include <cstdint>

#include "image.h"

namespace filterlab {

class SeededRandom {
public:
    explicit SeededRandom(uint64_t seed) : state_(seed) {}
    uint64_t next();
    double uniform();  // [0, 1)
    double normal();   // standard normal (Box-Muller)

private:
    uint64_t state_;
};

// Each pixel, with probability q, becomes 0 or 255 (half each) in all channels.
void add_salt_and_pepper(Image &image, double density, uint64_t seed);
// Adds N(0, sigma^2), rounded and clamped to [0, 255].
void add_gaussian_noise(Image &image, double sigma, uint64_t seed);
// Uniform random samples.
Image random_image(int width, int height, int channels, uint64_t seed);
// 10 log10(255^2 / MSE) in dB; infinity for identical images.
double psnr(const Image &reference, const Image &test);

}  // namespace filterlab
