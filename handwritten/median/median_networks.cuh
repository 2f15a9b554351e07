// Compare-exchange networks for the median kernels (median_packed.cu,
// median_row_pairs.cu), on 32-bit words of two 16-bit lanes: every
// compare-exchange is one min.u16x2 and one max.u16x2 for two pixels. All
// networks are built at compile time and applied fully unrolled, so the
// compiler drops every min or max whose result is not used: a network need
// only be correct, and what a kernel reads of its outputs decides its cost.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

namespace filterlab::handwritten {

// v[a] <- min, v[b] <- max, per 16-bit lane.
__device__ inline void compare_exchange(uint32_t &a, uint32_t &b) {
    const uint32_t lo = __vminu2(a, b);
    b = __vmaxu2(a, b);
    a = lo;
}

// The median of three, per 16-bit lane.
__device__ inline uint32_t median3(uint32_t a, uint32_t b, uint32_t c) {
    return __vmaxu2(__vminu2(a, b), __vminu2(__vmaxu2(a, b), c));
}

struct Comparator {
    int a = 0, b = 0;
};

// f(std::integral_constant<int, I>) for each I of the sequence, in order.
template <typename F, std::size_t... I>
__device__ inline void for_each_index(F &&f, std::index_sequence<I...>) {
    (f(std::integral_constant<int, static_cast<int>(I)>{}), ...);
}

// Batcher's odd-even merge of two sorted lists of any lengths, as comparators
// on the slots of their concatenation (A in 0..NA-1, B in NA..NA+NB-1), and
// the slot that holds each rank at the end (`order`).
constexpr int kMaxMerge = 64;
struct Slots {
    int s[kMaxMerge] = {};
    int n = 0;
};
struct MergeList {
    Comparator list[kMaxMerge * 8] = {};
    int size = 0;
};
constexpr void batcher_merge(MergeList &net, const Slots &a, const Slots &b, Slots &out) {
    out = Slots{};
    if (a.n == 0 || b.n == 0) {
        out = a.n == 0 ? b : a;
        return;
    }
    if (a.n == 1 && b.n == 1) {
        net.list[net.size++] = {a.s[0], b.s[0]};
        out.s[out.n++] = a.s[0];
        out.s[out.n++] = b.s[0];
        return;
    }
    Slots a_even, a_odd, b_even, b_odd, v, w;
    for (int i = 0; i < a.n; i++) (i % 2 ? a_odd : a_even).s[(i % 2 ? a_odd : a_even).n++] = a.s[i];
    for (int i = 0; i < b.n; i++) (i % 2 ? b_odd : b_even).s[(i % 2 ? b_odd : b_even).n++] = b.s[i];
    batcher_merge(net, a_even, b_even, v);
    batcher_merge(net, a_odd, b_odd, w);
    out.s[out.n++] = v.s[0];
    int t = 0;
    for (; t < w.n && t + 1 < v.n; t++) {  // min to w[t], max to v[t + 1]
        net.list[net.size++] = {w.s[t], v.s[t + 1]};
        out.s[out.n++] = w.s[t];
        out.s[out.n++] = v.s[t + 1];
    }
    for (int i = t + 1; i < v.n; i++) out.s[out.n++] = v.s[i];
    for (int i = t; i < w.n; i++) out.s[out.n++] = w.s[i];
}
struct MergeNetwork {
    MergeList comparators;
    Slots order;
};
template <int NA, int NB>
constexpr MergeNetwork make_merge() {
    static_assert(NA + NB <= kMaxMerge, "lists too long");
    Slots a, b;
    for (int i = 0; i < NA; i++) a.s[a.n++] = i;
    for (int i = 0; i < NB; i++) b.s[b.n++] = NA + i;
    MergeNetwork m;
    batcher_merge(m.comparators, a, b, m.order);
    return m;
}
template <int NA, int NB>
struct Merge {
    static constexpr MergeNetwork network = make_merge<NA, NB>();
};

// out = the sorted union of the sorted lists a and b.
template <int NA, int NB, std::size_t... C, std::size_t... I>
__device__ inline void merge_lists(const uint32_t (&a)[NA], const uint32_t (&b)[NB], uint32_t (&out)[NA + NB],
                                   std::index_sequence<C...>, std::index_sequence<I...>) {
    using M = Merge<NA, NB>;
    uint32_t v[NA + NB];
#pragma unroll
    for (int i = 0; i < NA + NB; i++) v[i] = i < NA ? a[i] : b[i - NA];
    (compare_exchange(v[M::network.comparators.list[C].a], v[M::network.comparators.list[C].b]), ...);
    ((out[I] = v[M::network.order.s[I]]), ...);
}
template <int NA, int NB>
__device__ inline void merge_lists(const uint32_t (&a)[NA], const uint32_t (&b)[NB], uint32_t (&out)[NA + NB]) {
    merge_lists(a, b, out, std::make_index_sequence<Merge<NA, NB>::network.comparators.size>{},
                std::make_index_sequence<NA + NB>{});
}

// Sorts v (Batcher's merge sort: halves sorted, then merged).
template <int N>
__device__ inline void sort_list(uint32_t (&v)[N]) {
    if constexpr (N > 1) {
        constexpr int H = N / 2;
        uint32_t lo[H], hi[N - H];
#pragma unroll
        for (int i = 0; i < N; i++) (i < H ? lo[i] : hi[i - H]) = v[i];
        sort_list(lo);
        sort_list(hi);
        merge_lists(lo, hi, v);
    }
}

// The element of rank RANK (from 0) of the union of the sorted lists a and b:
// the least of max(a[i-1], b[j-1]) over i + j = RANK + 1 (a term with i = 0
// or j = 0 is the other list's element alone).
template <int RANK, int NA, int NB>
__device__ inline uint32_t select_rank(const uint32_t (&a)[NA], const uint32_t (&b)[NB]) {
    static_assert(RANK >= 0 && RANK < NA + NB, "rank out of range");
    constexpr int lo = RANK + 1 - NB > 0 ? RANK + 1 - NB : 0, hi = RANK + 1 < NA ? RANK + 1 : NA;
    auto term = [&](int i) {
        const int j = RANK + 1 - i;
        return i == 0 ? b[j - 1] : j == 0 ? a[i - 1] : __vmaxu2(a[i - 1], b[j - 1]);
    };
    uint32_t result = term(lo);
#pragma unroll
    for (int i = lo + 1; i <= hi; i++) result = __vminu2(result, term(i));
    return result;
}

}  // namespace filterlab::handwritten
