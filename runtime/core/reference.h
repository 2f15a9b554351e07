// The plain C++ reference of every filter in FILTERS.md: short, direct,
// obviously correct, and the oracle of every test. No speed is sought here.
#pragma once

#include <array>

#include "image.h"

namespace filterlab::reference {

Image box(const Image &in, int radius);
Image median(const Image &in, int size);
// The contract's 5-tap integer weights for sigma (they sum to 256).
std::array<int, 5> gaussian_weights(double sigma);
Image gaussian(const Image &in, double sigma);
Image maxpool(const Image &in);
Image nlmeans(const Image &in, int patch, int search, double h);

}  // namespace filterlab::reference
