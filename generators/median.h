// median filter, FILTERS.md: the ((k^2+1)/2)-th smallest of the k x k window,
// k in {3, 5, 7} (fixed when the pipeline is compiled), clamp border.
// Halide has no sort, so the median is a min/max network:
//   1. each column of k samples is sorted (a Func: neighbouring outputs share it);
//   2. for 3x3, the classic: the median of (max of the column minima, median
//      of the column medians, min of the column maxima);
//   3. for 5x5 and 7x7, the rows of the column-sorted window are sorted too,
//      which leaves 13 (5x5) or 29 (7x7) candidates at a known rank; a
//      sorting network over them, of which Halide builds only the part that
//      leads to that rank, selects the median.
// The algorithm only; schedules/median/ holds the schedules.
#pragma once

#include <vector>

#include "Halide.h"

namespace filterlab::median_pipeline {

struct Pipeline {
    Halide::Var x{"x"}, y{"y"}, c{"c"};
    int size = 3;
    Halide::Func clamped{"clamped"};
    Halide::Func columns{"columns"};  // a Tuple: the k samples of column (x, y-r..y+r), sorted
    Halide::Func output;
};

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

inline void define(Pipeline &p, const Halide::Func &input, const Halide::Expr &width, const Halide::Expr &height,
                   int size, Halide::Func output) {
    using namespace Halide;
    const Var &x = p.x, &y = p.y, &c = p.c;
    const int r = size / 2;
    p.size = size;
    p.clamped(x, y, c) = input(clamp(x, 0, width - 1), clamp(y, 0, height - 1), c);

    // 1. Column sorts, padded to a power of two with 255 (which sorts last).
    const int run = next_power_of_two(size);
    std::vector<Expr> column;
    for (int j = -r; j <= r; j++) column.push_back(p.clamped(x, y + j, c));
    column.resize(run, cast<uint8_t>(255));
    odd_even_merge_sort(column);
    column.resize(size);
    p.columns(x, y, c) = Tuple(column);

    p.output = output;
    if (size == 3) {  // 2. the classic 3x3 selection
        auto col = [&](int i, int rank) { return p.columns(x + i, y, c)[rank]; };
        Expr max_of_min = max(col(-1, 0), col(0, 0), col(1, 0));
        Expr med_of_med = median3(col(-1, 1), col(0, 1), col(1, 1));
        Expr min_of_max = min(col(-1, 2), col(0, 2), col(1, 2));
        p.output(x, y, c) = median3(max_of_min, med_of_med, min_of_max);
        return;
    }
    // 3. Sort the rows of the column-sorted window as well. Then cell (i, j)
    // (row rank i, column rank j) has at least (i+1)(j+1) samples at or below
    // it and (k-i)(k-j) at or above it, so only the cells where neither count
    // exceeds m + 1 (m = (k^2-1)/2) can hold the median, and it is the
    // candidate of rank m minus the cells ruled out as too small.
    const int m = (size * size - 1) / 2;
    std::vector<std::vector<Expr>> sorted(size);
    for (int rank = 0; rank < size; rank++) {
        std::vector<Expr> row;
        for (int i = -r; i <= r; i++) row.push_back(p.columns(x + i, y, c)[rank]);
        row.resize(run, cast<uint8_t>(255));
        odd_even_merge_sort(row);
        sorted[rank] = row;
    }
    std::vector<Expr> candidates;
    int below = 0;
    for (int i = 0; i < size; i++)
        for (int j = 0; j < size; j++) {
            if ((i + 1) * (j + 1) <= m + 1 && (size - i) * (size - j) <= m + 1) candidates.push_back(sorted[i][j]);
            if ((size - i) * (size - j) > m + 1) below++;
        }
    const int rank = m - below;
    candidates.resize(next_power_of_two(static_cast<int>(candidates.size())), cast<uint8_t>(255));
    odd_even_merge_sort(candidates);  // Halide builds only what leads to candidates[rank]
    p.output(x, y, c) = candidates[rank];
}

}  // namespace filterlab::median_pipeline
