// Min/max networks on lists of Halide expressions, for the median's
// algorithms (median.h). Each builds a whole network; Halide then keeps only
// the comparisons that lead to the values a pipeline uses, so a median that
// reads one rank of a sorted list pays for a pruned network.
#pragma once

#include <vector>

#include "Halide.h"

namespace filterlab::median {

inline void compare_exchange(std::vector<Halide::Expr> &v, int i, int j) {
    Halide::Expr lo = Halide::min(v[i], v[j]), hi = Halide::max(v[i], v[j]);
    v[i] = lo;
    v[j] = hi;
}

// Batcher's odd-even merge sort of v (its size a power of two), skipping the
// stages that only sort within runs of length `sorted_runs`, which are sorted
// already.
inline void odd_even_merge_sort(std::vector<Halide::Expr> &v, int sorted_runs = 1) {
    const int n = static_cast<int>(v.size());
    for (int p = sorted_runs; p < n; p *= 2)
        for (int k = p; k >= 1; k /= 2)
            for (int j = k % p; j + k < n; j += 2 * k)
                for (int i = 0; i < k && i + j + k < n; i++)
                    if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) compare_exchange(v, i + j, i + j + k);
}

inline int next_power_of_two(int n) {
    int p = 1;
    while (p < n) p *= 2;
    return p;
}

inline Halide::Expr median3(Halide::Expr a, Halide::Expr b, Halide::Expr c) {
    return Halide::max(Halide::min(a, b), Halide::min(Halide::max(a, b), c));
}

// v padded to n with its type's largest value, which sorts last (and which
// Halide's simplifier folds away: min(a, max) is a).
inline void pad_to(std::vector<Halide::Expr> &v, int n) {
    v.resize(n, v.front().type().max());
}

// v sorted (ascending).
inline std::vector<Halide::Expr> sorted(std::vector<Halide::Expr> v) {
    if (v.size() < 2) return v;
    const int n = static_cast<int>(v.size());
    pad_to(v, next_power_of_two(n));
    odd_even_merge_sort(v);
    v.resize(n);
    return v;
}

// The sorted union of the sorted lists a and b (Batcher's merge).
inline std::vector<Halide::Expr> merged(std::vector<Halide::Expr> a, std::vector<Halide::Expr> b) {
    if (a.empty()) return b;
    if (b.empty()) return a;
    const int n = static_cast<int>(a.size() + b.size());
    const int run = next_power_of_two(static_cast<int>(std::max(a.size(), b.size())));
    pad_to(a, run);
    pad_to(b, run);
    a.insert(a.end(), b.begin(), b.end());
    odd_even_merge_sort(a, run);
    a.resize(n);
    return a;
}

// The median of a k x k window whose columns and then rows are sorted:
// sorted[i][j] is the cell of row rank i and column rank j. That cell has at
// least (i+1)(j+1) samples at or below it and (k-i)(k-j) at or above it, so
// only the cells where neither count exceeds m + 1 (m = (k^2-1)/2) can hold
// the median, and it is the candidate of rank m minus the cells ruled out as
// too small.
inline Halide::Expr median_of_sorted_rows(const std::vector<std::vector<Halide::Expr>> &sorted, int size) {
    const int m = (size * size - 1) / 2;
    std::vector<Halide::Expr> candidates;
    int below = 0;
    for (int i = 0; i < size; i++)
        for (int j = 0; j < size; j++) {
            if ((i + 1) * (j + 1) <= m + 1 && (size - i) * (size - j) <= m + 1) candidates.push_back(sorted[i][j]);
            if ((size - i) * (size - j) > m + 1) below++;
        }
    const int rank = m - below;
    pad_to(candidates, next_power_of_two(static_cast<int>(candidates.size())));
    odd_even_merge_sort(candidates);  // Halide builds only what leads to candidates[rank]
    return candidates[rank];
}

}  // namespace filterlab::median
