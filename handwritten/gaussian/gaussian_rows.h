// One output row of the direct 5x5 Gaussian on the CPU (the double loop over
// the 25 products, the contract's weights, clamp border, (sum + 32768) >> 16):
// shared by the OpenMP and Pthreads baselines, which differ only in how they
// split the rows over threads.
#pragma once

#include <array>

#include "cpu_planes.h"
#include "reference.h"

namespace filterlab::handwritten::cpu {

using GaussianWeights = std::array<int, 5>;  // w_-2 .. w_2

inline uint8_t round_shift(uint32_t sum) { return static_cast<uint8_t>((sum + 32768u) >> 16); }

inline void gaussian_direct_row(const Plane &p, const GaussianWeights &w, int y) {
    for (int x = 0; x < p.width; x++) {
        uint32_t sum = 0;
        for (int i = -2; i <= 2; i++) {
            const uint8_t *row = p.in + clamp_index(y + i, p.height - 1) * p.in_pitch;
            for (int j = -2; j <= 2; j++) sum += w[i + 2] * w[j + 2] * row[clamp_index(x + j, p.width - 1)];
        }
        p.out[y * p.out_pitch + x] = round_shift(sum);
    }
}

}  // namespace filterlab::handwritten::cpu
