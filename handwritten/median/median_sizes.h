// The window sizes of the contract's median (contract_ranges.h: kMedianSizes),
// as compile-time constants for kernels templated on k.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "contract_ranges.h"

namespace filterlab::handwritten {

namespace detail {
template <typename F, std::size_t... I>
void with_median_size(int k, F &&f, std::index_sequence<I...>) {
    // The first size that is k; failing all, the largest.
    const bool found = ((k == kMedianSizes[I] && (f(std::integral_constant<int, kMedianSizes[I]>{}), true)) || ...);
    if (!found) f(std::integral_constant<int, kMedianSizes.back()>{});
}
}  // namespace detail

// Calls f(std::integral_constant<int, k>{}) for k, one of kMedianSizes (the
// harness has already refused any other size); one instance of f per size.
template <typename F>
void with_median_size(int k, F &&f) {
    detail::with_median_size(k, f, std::make_index_sequence<kMedianSizes.size()>{});
}

}  // namespace filterlab::handwritten
