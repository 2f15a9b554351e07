// Exact integer helpers shared by the generators.
#pragma once

#include "Halide.h"

namespace filterlab::arithmetic {

// floor(numerator / n) + rounding half up, i.e. (numerator + n/2) / n, exact for
// 0 <= numerator < 2^20 and 1 <= n < 2^11, without an integer division.
//
// Why it is exact: let a = numerator + n/2 (an integer, exact in float below
// 2^24) and a = q*n + r with 0 <= r < n. Then (a + 0.5)/n = q + (r + 0.5)/n
// lies at least 0.5/n >= 2.4e-4 away from any integer, while the float result
// (one rounded reciprocal, one rounded product, value below 512) is within
// 512 * 2^-23 = 6.1e-5 of it, so truncation gives q. tests/ check it for every
// numerator and every n a filter of the contract can produce.
inline Halide::Expr divide_round_half_up(const Halide::Expr &numerator, const Halide::Expr &n) {
    using namespace Halide;
    Expr a = cast<float>(numerator + n / 2) + 0.5f;
    Expr reciprocal = 1.0f / cast<float>(n);
    return cast<uint32_t>(a * reciprocal);
}

}  // namespace filterlab::arithmetic
