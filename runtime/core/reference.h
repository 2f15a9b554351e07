// The plain C++ reference of every filter in FILTERS.md: short, direct,
// obviously correct, and the oracle of every test. No speed is sought here,
// except that the rows are computed in bands on every core (each output row
// depends only on the input): a box of radius 15 at 8192² takes minutes on one.
#pragma once

#include <array>

#include "image.h"

namespace filterlab::reference {

// While one lives, the references called on its thread run serially: the
// bench times the `reference` variant so, as the baseline of every speed-up.
class Serial {
public:
    Serial();
    ~Serial();
    Serial(const Serial &) = delete;
    Serial &operator=(const Serial &) = delete;

private:
    bool previous_;
};

Image box(const Image &in, int radius);
Image median(const Image &in, int size);
// The contract's 5-tap integer weights for sigma (they sum to 256).
std::array<int, 5> gaussian_weights(double sigma);
Image gaussian(const Image &in, double sigma);
Image maxpool(const Image &in);
Image nlmeans(const Image &in, int patch, int search, double h);

}  // namespace filterlab::reference
