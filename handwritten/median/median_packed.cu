// Our median kernel, any k in {3, 5, 7}; aimed at 3x3 and 5x5.
//
// Each thread owns a 16-pixel strip (one 16-byte load and store per row, halo
// by warp shuffles, edges clamped in registers: strip_words.cuh) on a few
// rows. The strip is split into its even and odd pixels, two per 32-bit word
// in 16-bit lanes, so every compare-exchange is one native min.u16x2 and one
// max.u16x2 for two pixels (__vminu4 on bytes is emulated on sm_90: about ten
// instructions). Each column of k samples is sorted once per word and shared
// by the k outputs that use it; the k sorted columns are then reduced to the
// median: the classic max-of-minima / median-of-medians / min-of-maxima for
// 3x3; for 5x5 and 7x7 the rows of the column-sorted window are sorted too,
// which leaves 13 (5x5) or 29 (7x7) candidates at a known rank, selected by
// a pruned odd-even merge network built at compile time. Gold:
// reference::median.
#include <utility>

#include "median_networks.cuh"
#include "plane.h"
#include "median_sizes.h"
#include "registry.h"
#include "strip_words.cuh"

namespace filterlab::handwritten {
namespace {

constexpr int kThreads = 128;
constexpr uint32_t kLanes = 0x00ff00ffu;
constexpr uint32_t kTop = 0x00ff00ffu;  // 255 in both lanes: sorts last

// Batcher's odd-even merge sort of N elements (a power of two) as a list of
// comparators, built at compile time and pruned of everything that cannot
// change the result: the stages that only sort within runs of RUN elements
// (already sorted); every comparator reaching the padding above the COUNT real
// elements (padding holds the largest value and stays on top, so such a
// comparator never moves anything); and every comparator that does not lead to
// an output position in the bit mask NEEDED (a partial sort or a selection).
template <int N>
struct Network {
    Comparator list[N * N / 2 * 8] = {};
    int size = 0;
};

template <int N, int RUN, int COUNT, uint64_t NEEDED>
constexpr Network<N> make_network() {
    static_assert(N <= 64 && COUNT <= N, "NEEDED is a 64-bit mask over the N positions");
    Network<N> full;
    for (int p = RUN; p < N; p *= 2)
        for (int k = p; k >= 1; k /= 2)
            for (int j = k % p; j + k < N; j += 2 * k)
                for (int i = 0; i < k && i + j + k < N; i++)
                    if ((i + j) / (2 * p) == (i + j + k) / (2 * p) && i + j + k < COUNT)
                        full.list[full.size++] = {i + j, i + j + k};
    bool needed[N] = {};
    for (int i = 0; i < N; i++) needed[i] = (NEEDED >> i) & 1;
    bool keep[N * N / 2 * 8] = {};
    for (int c = full.size - 1; c >= 0; c--) {
        const Comparator cmp = full.list[c];
        if (needed[cmp.a] || needed[cmp.b]) keep[c] = needed[cmp.a] = needed[cmp.b] = true;
    }
    Network<N> pruned;
    for (int c = 0; c < full.size; c++)
        if (keep[c]) pruned.list[pruned.size++] = full.list[c];
    return pruned;
}

template <int N, int RUN, int COUNT, uint64_t NEEDED>
struct SortingNetwork {
    static constexpr Network<N> network = make_network<N, RUN, COUNT, NEEDED>();
};

template <int N, int RUN, int COUNT, uint64_t NEEDED, std::size_t... C>
__device__ inline void apply_network(uint32_t (&v)[N], std::index_sequence<C...>) {
    using S = SortingNetwork<N, RUN, COUNT, NEEDED>;
    (compare_exchange(v[S::network.list[C].a], v[S::network.list[C].b]), ...);
}

// Puts the elements of v at the positions in NEEDED where a full sort of its
// first COUNT elements would (the rest of v, if any, must hold kTop).
template <int N, int RUN, int COUNT, uint64_t NEEDED = ~0ull>
__device__ inline void odd_even_merge_sort(uint32_t (&v)[N]) {
    using S = SortingNetwork<N, RUN, COUNT, NEEDED>;
    apply_network<N, RUN, COUNT, NEEDED>(v, std::make_index_sequence<S::network.size>{});
}

// A k x k window whose columns and rows are both sorted: element (i, j) has
// at least (i+1)(j+1) elements at or below it and (k-i)(k-j) at or above it,
// so only the cells where neither count passes the median's rank m + 1 can be
// the median; it is the candidate of rank m minus the cells ruled out below.
struct CellList {
    Comparator cell[49] = {};  // (row rank, column rank)
};
template <int K>
struct Candidates {
    static constexpr int m = (K * K - 1) / 2;
    static constexpr CellList make(int &count, int &below) {
        CellList l;
        count = below = 0;
        for (int i = 0; i < K; i++)
            for (int j = 0; j < K; j++) {
                if ((i + 1) * (j + 1) <= m + 1 && (K - i) * (K - j) <= m + 1) l.cell[count++] = {i, j};
                if ((K - i) * (K - j) > m + 1) below++;
            }
        return l;
    }
    static constexpr int count_of() { int c = 0, b = 0; make(c, b); return c; }
    static constexpr int below_of() { int c = 0, b = 0; make(c, b); return b; }
    static constexpr CellList list_of() { int c = 0, b = 0; return make(c, b); }
    static constexpr int count = count_of();
    static constexpr int rank = m - below_of();
    static constexpr int padded = count <= 16 ? 16 : 32;
    static constexpr CellList list = list_of();
    // The columns of row `row` that hold candidates: all its row sort must place.
    __host__ __device__ static constexpr uint64_t row_needed(int row) {
        uint64_t mask = 0;
        for (int c = 0; c < count; c++)
            if (list.cell[c].a == row) mask |= 1ull << list.cell[c].b;
        return mask;
    }
};

// candidates[c] = the c-th candidate cell of m, then kTop up to the padded size.
template <int K, std::size_t... I>
__device__ inline void gather_candidates(const uint32_t (&m)[K][K], uint32_t (&candidates)[Candidates<K>::padded],
                                         std::index_sequence<I...>) {
    using C = Candidates<K>;
    ((candidates[I] = I < C::count ? m[C::list.cell[I].a][C::list.cell[I].b] : kTop), ...);
}

__host__ __device__ constexpr int pow2(int n) { return n <= 1 ? 1 : 2 * pow2((n + 1) / 2); }
__host__ __device__ constexpr int rows_per_thread(int k) { return k == 3 ? 4 : 1; }

// The pair of pixels (q, q + 2), q counted from the start of word 0, out of
// the stream (even or odd pixels) that holds q: stream[s] holds pixels
// 4s + parity and 4s + parity + 2.
__device__ inline uint32_t pair_at(const uint32_t (&stream)[6], int q) {
    const int s = q / 4;
    return (q % 4) < 2 ? stream[s] : __byte_perm(stream[s], stream[s + 1], 0x5432);
}

// Loads the kIn rows of the thread's strip (y0 - R on, clamped) and splits
// each into its even and odd pixels, two to a word in 16-bit lanes.
template <int K, int kIn>
__device__ __forceinline__ void load_streams(const Plane &p, int x0, int y0, int lane, uint32_t (&even)[kIn][6],
                                             uint32_t (&odd)[kIn][6]) {
    constexpr int R = K / 2;
    uint4 mid[kIn];
#pragma unroll
    for (int r = 0; r < kIn; r++)
        mid[r] = load_strip(p.in + clamp_index(y0 + r - R, p.height - 1) * p.in_pitch, x0, p.width);
#pragma unroll
    for (int r = 0; r < kIn; r++) {
        const uint8_t *row = p.in + clamp_index(y0 + r - R, p.height - 1) * p.in_pitch;
        const RowWords words = row_words(row, mid[r], x0, p.width, lane);
#pragma unroll
        for (int s = 0; s < 6; s++) {
            even[r][s] = words.w[s] & kLanes;
            odd[r][s] = (words.w[s] >> 8) & kLanes;
        }
    }
}

// The K-sample columns of output row r (input rows r .. r + K - 1), sorted
// once per stream word: sorted_even[rank][s], sorted_odd[rank][s].
template <int K, int kIn>
__device__ __forceinline__ void sort_columns(const uint32_t (&even)[kIn][6], const uint32_t (&odd)[kIn][6], int r,
                                             uint32_t (&sorted_even)[K][6], uint32_t (&sorted_odd)[K][6]) {
    constexpr int kRun = pow2(K);
#pragma unroll
    for (int s = 0; s < 6; s++) {
        uint32_t e[kRun], o[kRun];
#pragma unroll
        for (int i = 0; i < kRun; i++) {
            e[i] = i < K ? even[r + i][s] : kTop;
            o[i] = i < K ? odd[r + i][s] : kTop;
        }
        odd_even_merge_sort<kRun, 1, K>(e);
        odd_even_merge_sort<kRun, 1, K>(o);
#pragma unroll
        for (int i = 0; i < K; i++) sorted_even[i][s] = e[i], sorted_odd[i][s] = o[i];
    }
}

// 5x5, 7x7: the median of the window whose sorted columns `column(d, rank)`
// gives (d = -R .. R).
template <int K, typename Column>
__device__ __forceinline__ uint32_t candidate_median(Column &&column) {
    constexpr int R = K / 2, kRun = pow2(K);
    // Sort the rows of the column-sorted window too; then only the
    // candidates (Candidates<K>) can be the median, at a known rank.
    uint32_t m[K][K];
    for_each_index(
        [&](auto rank_constant) {
            constexpr int rank = decltype(rank_constant)::value;
            uint32_t row[kRun];
#pragma unroll
            for (int i = 0; i < kRun; i++) row[i] = i < K ? column(i - R, rank) : kTop;
            odd_even_merge_sort<kRun, 1, K, Candidates<K>::row_needed(rank)>(row);
#pragma unroll
            for (int i = 0; i < K; i++) m[rank][i] = row[i];
        },
        std::make_index_sequence<K>{});
    using C = Candidates<K>;
    uint32_t candidates[C::padded];
    gather_candidates<K>(m, candidates, std::make_index_sequence<C::padded>{});
    odd_even_merge_sort<C::padded, 1, C::count, 1ull << C::rank>(candidates);
    return candidates[C::rank];
}

// Output word j of the row whose sorted columns are given: the medians of the
// pixels 4j .. 4j + 3, in bytes 0 .. 3.
template <int K>
__device__ __forceinline__ uint32_t median_word(const uint32_t (&sorted_even)[K][6], const uint32_t (&sorted_odd)[K][6],
                                                int j) {
    uint32_t result[2];
#pragma unroll
    for (int parity = 0; parity < 2; parity++) {
        // The column at offset d of the outputs 4j + parity and 4j + parity + 2.
        auto column = [&](int d, int rank) {
            const int q = 4 + 4 * j + parity + d;  // from the start of word 0
            return q % 2 == 0 ? pair_at(sorted_even[rank], q) : pair_at(sorted_odd[rank], q - 1);
        };
        if constexpr (K == 3) {
            const uint32_t max_of_min = __vmaxu2(__vmaxu2(column(-1, 0), column(0, 0)), column(1, 0));
            const uint32_t med_of_med = median3(column(-1, 1), column(0, 1), column(1, 1));
            const uint32_t min_of_max = __vminu2(__vminu2(column(-1, 2), column(0, 2)), column(1, 2));
            result[parity] = median3(max_of_min, med_of_med, min_of_max);
        } else {
            result[parity] = candidate_median<K>(column);
        }
    }
    return result[0] | result[1] << 8;
}

template <int K>
__global__ void __launch_bounds__(kThreads) median_packed_kernel(Plane p) {
    constexpr int kRows = rows_per_thread(K), kIn = kRows + K - 1;
    const int lane = threadIdx.x;
    const int x0 = (blockIdx.x * 32 + threadIdx.x) * 16;
    const int y0 = (blockIdx.y * blockDim.y + threadIdx.y) * kRows;
    if (y0 >= p.height) return;  // the whole warp: its lanes share y0

    uint32_t even[kIn][6], odd[kIn][6];
    load_streams<K>(p, x0, y0, lane, even, odd);
#pragma unroll
    for (int r = 0; r < kRows; r++) {
        if (y0 + r >= p.height || x0 >= p.width) break;
        uint32_t sorted_even[K][6], sorted_odd[K][6];
        sort_columns<K>(even, odd, r, sorted_even, sorted_odd);
        uint32_t out[4];
#pragma unroll
        for (int j = 0; j < 4; j++) out[j] = median_word<K>(sorted_even, sorted_odd, j);
        store_strip(p.out + (y0 + r) * p.out_pitch + x0, x0, p.width, out);
    }
}

template <int K>
void launch(const Plane &p) {
    constexpr int kRows = rows_per_thread(K);
    const int strips = (p.width + 15) / 16;
    const dim3 block(32, kThreads / 32);
    median_packed_kernel<K><<<dim3((strips + 31) / 32, (p.height + kRows * block.y - 1) / (kRows * block.y)), block, 0, stream()>>>(p);
}

void run(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    const int k = static_cast<int>(params.at("size"));
    for_each_plane(in, out, "median_packed_kernel", [&](const Plane &p) {
        with_median_size(k, [&](auto size) { launch<decltype(size)::value>(p); });
    });
}

const VariantRegistration registration{
    {"median", "hw_packed", Backend::cuda, Kind::handwritten, {}, run}};

}  // namespace
}  // namespace filterlab::handwritten
