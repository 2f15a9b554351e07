// Median filter, k = 3, 5, 7, on pairs of output rows, with the sorting work
// shared vertically as well as horizontally: the separable sorting networks
// of Adams 2021 ("Fast median filters using separable sorting networks"),
// pruned to the median, on packed 16-bit lanes.
//
// Layout: a thread owns a 16-pixel strip (one 16-byte load per row, the halo
// from neighbouring lanes, the image edges clamped in registers:
// strip_words.cuh) and the output rows y, y + 1 (three such pairs for 3x3).
// Word j of a row holds pixels x0 + j - R and x0 + 8 + j - R, each in the
// high byte of a 16-bit lane (the low byte is whatever PRMT brought along: it
// only breaks ties, so the high bytes of any min/max network are that network
// on the pixels). One min.u16x2 or max.u16x2 thus serves two pixels, and the
// columns at any offset are other words: nothing is shifted or unpacked
// between the load (one PRMT a word) and the final packing of the results.
//
// Vertically, rows y and y + 1 share k - 1 rows: each column's k - 1 shared
// samples are sorted once ("core") and each output row merges in its extra
// one. Horizontally, outputs 2i and 2i + 1 share k - 1 columns: their sorted
// union ("interval") is merged from pairs of columns, shared by the
// intervals that overlap (for 7x7 two intervals also share a merged quad,
// Adams' 4-wide tiles); each output then takes rank (k^2 - 1) / 2 of its
// interval plus its own extra column, a select (a min of maxes) of about 2k
// ops. For 5x5 and 7x7 the intervals are merged from the cores, once for
// both rows, then with each row's extra samples. Every list is a generic
// Batcher merge (median_networks.cuh) and the compiler drops each min and max
// that cannot reach the median: a 36-sample interval costs only what its 14
// possible medians need. 3x3 keeps the classic max of minima, median of
// medians, min of maxima on the shared columns.
//
// Why fast: median kernels are ALU-bound (min/max), and per output pixel this
// issues 69 (7x7), 28.5 (5x5), 7.6 (3x3) min/max instructions against
// hw_packed's 229, 78 and 8.8, and 80, 37, 11.8 instructions in all against
// 254, 97, 15.2 (SASS of the interior path; ptxas fuses min(min()) into one
// 3-input VIMNMX3 by itself).
// Gold: reference::median.
#include "median_networks.cuh"
#include "median_sizes.h"
#include "plane.h"
#include "registry.h"
#include "strip_words.cuh"

namespace filterlab::handwritten {
namespace {

constexpr int kThreads = 128;

// Row pairs per thread: three for 3x3 (fewer loads per output), else one
// (registers). 7x7 asks for three blocks an SM (168 registers, 20 bytes of
// spills; left alone it takes 175 and two); 0 leaves 5x5 (96) and 3x3 (102)
// to ptxas, which any minimum pushes to more registers or to spills.
__host__ __device__ constexpr int row_pairs_per_thread(int k) { return k == 3 ? 3 : 1; }
__host__ __device__ constexpr int min_blocks_per_sm(int k) { return k == 7 ? 3 : 0; }

// Word j (j = 0 .. 7 + 2R) of a row: its position is j - R, and it holds the
// pixels x0 + j - R and x0 + 8 + j - R in bytes 1 and 3.
template <int R>
__device__ inline uint32_t lane_word(const RowWords &row, int j) {
    const int i = j - R + 4;  // byte of x0 + j - R in row.w (w[0] starts at x0 - 4)
    const int c = i % 4;
    return __byte_perm(row.w[i / 4], row.w[i / 4 + 2], c | c << 4 | (c + 4) << 8 | (c + 4) << 12);
}

// The k - 1 columns shared by outputs 2i and 2i + 1 (i = 0..3), at positions
// 2i + 1 - R .. 2i + R, are the atoms 2i + 1 .. 2i + K - 1 (sorted lists of A
// each); next<i> gives their sorted union, interval i, in the order i = 0..3,
// from merged pairs of atoms (pair t = atoms 2t + 1, 2t + 2), built just in
// time so that few are alive at once.
template <int K, int A>
struct IntervalStream {
    using Atoms = uint32_t[8 + 2 * (K / 2)][A];
    uint32_t pair[K / 2 + 3][2 * A], quad[2][4 * A];
    __device__ void make_pair(const Atoms &atom, int t) { merge_lists(atom[2 * t + 1], atom[2 * t + 2], pair[t]); }
    template <int I>
    __device__ void next(const Atoms &atom, uint32_t (&interval)[(K - 1) * A]) {
        if constexpr (K == 5) {
            if constexpr (I == 0) make_pair(atom, 0);
            make_pair(atom, I + 1);
            merge_lists(pair[I], pair[I + 1], interval);
        } else {
            // Adams' tiles of four outputs: the quad of pairs 1, 2 serves intervals 0
            // and 1, that of pairs 3, 4 intervals 2 and 3.
            static_assert(K == 7, "k = 3, 5 or 7");
            if constexpr (I == 0) {
                make_pair(atom, 0), make_pair(atom, 1), make_pair(atom, 2);
                merge_lists(pair[1], pair[2], quad[0]);
                merge_lists(pair[0], quad[0], interval);
            } else if constexpr (I == 1) {
                make_pair(atom, 3);
                merge_lists(quad[0], pair[3], interval);
            } else if constexpr (I == 2) {
                make_pair(atom, 4);
                merge_lists(pair[3], pair[4], quad[1]);
                merge_lists(pair[2], quad[1], interval);
            } else {
                make_pair(atom, 5);
                merge_lists(quad[1], pair[5], interval);
            }
        }
    }
};

// The sorted column: the sorted core plus one extra sample.
template <int N>
__device__ inline void insert(const uint32_t (&core)[N], uint32_t extra, uint32_t (&column)[N + 1]) {
    const uint32_t one[1] = {extra};
    merge_lists(core, one, column);
}

// Outputs 2i and 2i + 1 of a row: rank m of interval[i] with the column on either side.
template <int K>
__device__ inline void select_medians(const uint32_t (&left)[K], const uint32_t (&interval)[K * (K - 1)],
                                      const uint32_t (&right)[K], uint32_t &even, uint32_t &odd) {
    constexpr int kMedian = (K * K - 1) / 2;
    even = select_rank<kMedian>(left, interval);
    odd = select_rank<kMedian>(interval, right);
}

// 16 output pixels from the 8 result words (bytes 1 and 3), then stored.
__device__ inline void store_words(uint8_t *dst, int x0, int width, const uint32_t (&result)[8]) {
    uint32_t out[4];
#pragma unroll
    for (int h = 0; h < 2; h++) {
        const uint32_t lo = __byte_perm(result[4 * h], result[4 * h + 1], 0x7351);  // pixels 4h, 4h+1, 4h+8, 4h+9
        const uint32_t hi = __byte_perm(result[4 * h + 2], result[4 * h + 3], 0x7351);
        out[h] = __byte_perm(lo, hi, 0x5410);
        out[h + 2] = __byte_perm(lo, hi, 0x7632);
    }
    store_strip(dst, x0, width, out);
}

// Loads the kIn rows of the thread's strip: rows[r] is row y0 - R + r, clamped.
template <int K, int kIn>
__device__ __forceinline__ void load_rows(const Plane &p, int x0, int y0, int lane, RowWords (&rows)[kIn]) {
    constexpr int R = K / 2;
    uint4 mid[kIn];
#pragma unroll
    for (int r = 0; r < kIn; r++)
        mid[r] = load_strip(p.in + clamp_index(y0 + r - R, p.height - 1) * p.in_pitch, x0, p.width);
#pragma unroll
    for (int r = 0; r < kIn; r++)
        rows[r] = row_words(p.in + clamp_index(y0 + r - R, p.height - 1) * p.in_pitch, mid[r], x0, p.width, lane);
}

// Atom j of row pair q (rows[2q] is its row y - R): core[j] = rows y + 1 - R
// .. y + R, sorted; extra[0][j] = row y - R, extra[1][j] = row y + 1 + R; for
// 3x3 also column[r][j], the sorted column of output row y + r.
template <int K, int kIn, int kAtoms>
__device__ __forceinline__ void make_atom(const RowWords (&rows)[kIn], int q, int j, uint32_t (&core)[kAtoms][K - 1],
                                          uint32_t (&extra)[2][kAtoms][1], uint32_t (&column)[2][kAtoms][K]) {
    constexpr int R = K / 2;
#pragma unroll
    for (int i = 0; i < K - 1; i++) core[j][i] = lane_word<R>(rows[2 * q + 1 + i], j);
    sort_list(core[j]);
    extra[0][j][0] = lane_word<R>(rows[2 * q], j);
    extra[1][j][0] = lane_word<R>(rows[2 * q + K], j);
    if constexpr (K == 3) {
        insert(core[j], extra[0][j][0], column[0][j]);
        insert(core[j], extra[1][j][0], column[1][j]);
    }
}

// 3x3, outputs 2I, 2I + 1 of both rows: the classic max of the minima, median
// of the medians and min of the maxima of the three columns; the two outputs
// share their middle columns' sorted medians.
template <int I, int kAtoms>
__device__ __forceinline__ void classic_outputs(const uint32_t (&column)[2][kAtoms][3], uint32_t (&result)[2][8]) {
#pragma unroll
    for (int r = 0; r < 2; r++) {
        const uint32_t(&a)[3] = column[r][2 * I], (&b)[3] = column[r][2 * I + 1];
        const uint32_t(&c)[3] = column[r][2 * I + 2], (&d)[3] = column[r][2 * I + 3];
        uint32_t mid_lo = b[1], mid_hi = c[1];
        compare_exchange(mid_lo, mid_hi);
        // (No max(b, c) shared: each 3-input max is one VIMNMX3.)
        result[r][2 * I] = median3(__vmaxu2(__vmaxu2(a[0], b[0]), c[0]), __vmaxu2(mid_lo, __vminu2(a[1], mid_hi)),
                                   __vminu2(__vminu2(a[2], b[2]), c[2]));
        result[r][2 * I + 1] = median3(__vmaxu2(__vmaxu2(c[0], d[0]), b[0]), __vmaxu2(mid_lo, __vminu2(d[1], mid_hi)),
                                       __vminu2(__vminu2(c[2], d[2]), b[2]));
    }
}

// 5x5, 7x7, outputs 2I, 2I + 1 of both rows: interval I of the cores (shared
// by both rows) merged with that of each row's extra samples.
template <int K, int I, int kAtoms>
__device__ __forceinline__ void separable_outputs(const uint32_t (&core)[kAtoms][K - 1],
                                                  const uint32_t (&extra)[2][kAtoms][1],
                                                  IntervalStream<K, K - 1> &core_stream,
                                                  IntervalStream<K, 1> (&row_stream)[2], uint32_t (&result)[2][8]) {
    uint32_t core_interval[(K - 1) * (K - 1)];
    core_stream.template next<I>(core, core_interval);
#pragma unroll
    for (int r = 0; r < 2; r++) {
        uint32_t row_interval[K - 1], interval[K * (K - 1)], left[K], right[K];
        row_stream[r].template next<I>(extra[r], row_interval);
        merge_lists(core_interval, row_interval, interval);
        insert(core[2 * I], extra[r][2 * I][0], left);
        insert(core[2 * I + K], extra[r][2 * I + K][0], right);
        select_medians<K>(left, interval, right, result[r][2 * I], result[r][2 * I + 1]);
    }
}

template <int K>
__global__ void __launch_bounds__(kThreads, min_blocks_per_sm(K)) median_row_pairs_kernel(Plane p) {
    constexpr int R = K / 2, kAtoms = 8 + 2 * R, kPairs = row_pairs_per_thread(K), kIn = 2 * kPairs + K - 1;
    const int lane = threadIdx.x;
    const int x0 = (blockIdx.x * 32 + threadIdx.x) * 16;
    const int y0 = (blockIdx.y * blockDim.y + threadIdx.y) * 2 * kPairs;
    if (y0 >= p.height) return;  // the whole warp: its lanes share y0

    RowWords rows[kIn];  // rows[r] is row y0 - R + r
    load_rows<K>(p, x0, y0, lane, rows);
#pragma unroll
    for (int q = 0; q < kPairs; q++) {
        const int y = y0 + 2 * q;
        if (y >= p.height) break;
        // The atoms of the strip's words (make_atom), made left to right, as
        // the outputs need them.
        uint32_t core[kAtoms][K - 1], extra[2][kAtoms][1], column[2][kAtoms][K];
        // 5x5, 7x7: the intervals of the cores (shared by both rows) and of the extra rows.
        IntervalStream<K, K - 1> core_stream;
        IntervalStream<K, 1> row_stream[2];
        uint32_t result[2][8];
        for_each_index(
            [&](auto step) {
                constexpr int i = decltype(step)::value;
                // Outputs 2i, 2i + 1 need the atoms up to 2i + K.
#pragma unroll
                for (int j = i == 0 ? 0 : 2 * i + K - 1; j <= 2 * i + K; j++)
                    make_atom<K>(rows, q, j, core, extra, column);
                if constexpr (K == 3)
                    classic_outputs<i>(column, result);
                else
                    separable_outputs<K, i>(core, extra, core_stream, row_stream, result);
            },
            std::make_index_sequence<4>{});
#pragma unroll
        for (int r = 0; r < 2; r++)
            if (y + r < p.height && x0 < p.width)
                store_words(p.out + (y + r) * p.out_pitch + x0, x0, p.width, result[r]);
    }
}

template <int K>
void launch(const Plane &p) {
    constexpr int kRows = 2 * row_pairs_per_thread(K);
    const int strips = (p.width + 15) / 16;
    const dim3 block(32, kThreads / 32);
    median_row_pairs_kernel<K>
        <<<dim3((strips + 31) / 32, (p.height + kRows * block.y - 1) / (kRows * block.y)), block, 0, stream()>>>(p);
}

void run(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    const int k = static_cast<int>(params.at("size"));
    for_each_plane(in, out, "median_row_pairs_kernel", [&](const Plane &p) {
        with_median_size(k, [&](auto size) { launch<decltype(size)::value>(p); });
    });
}

const VariantRegistration registration{
    with_algorithm({"median", "hw_row_pairs", Backend::cuda, Kind::handwritten, {}, run}, "separable")};

}  // namespace
}  // namespace filterlab::handwritten
