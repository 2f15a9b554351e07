// The window sizes of the contract's median, as compile-time constants for
// kernels templated on k.
#pragma once

#include <type_traits>

namespace filterlab::handwritten {

// Calls f(std::integral_constant<int, k>{}) for k = 3, 5 or 7 (the harness
// has already refused any other size).
template <typename F>
void with_median_size(int k, F &&f) {
    if (k == 3) f(std::integral_constant<int, 3>{});
    else if (k == 5) f(std::integral_constant<int, 5>{});
    else f(std::integral_constant<int, 7>{});
}

}  // namespace filterlab::handwritten
