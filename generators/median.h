// median filter, FILTERS.md: the ((k^2+1)/2)-th smallest of the k x k window,
// k in {3, 5, 7} (fixed when the pipeline is compiled), clamp border.
// Halide has no sort, so the median is a min/max network (median_networks.h).
// Two algorithms, each a type holding only its stages (schedules/median/
// holds the schedules, each naming the type it schedules).
//
// Direct: every output sorts the columns of its window (a Func, so that
// neighbouring outputs may share them), then the rows of the column-sorted
// window, and selects among the cells that can still hold the median.
//
// Separable (Adams, "Fast Median Filters Using Separable Sorting Networks",
// 2021): the outputs come in tiles of tw x th, and what the windows of a tile
// share is sorted once for the tile. Vertically, the th windows of a tile's
// column share k - th + 1 rows: each column's shared part is sorted once and
// each output row merges in its th - 1 other samples. Horizontally, the tw
// windows of a tile row share k - tw + 1 columns: at each rank, the shared
// columns' values are sorted once and each output merges in its tw - 1 others.
// Then the same selection as direct's. The networks run on the sample type
// the generator gives (16-bit on GPUs, where 8-bit min/max unpack each lane).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "Halide.h"
#include "median_networks.h"
#include "word_view.h"

namespace filterlab::median {

// The outputs each evaluation of the separable algorithm makes.
struct Tile {
    int width = 1, height = 1;
};

// What the generator hands every algorithm: the image as `view` says
// (word_view.h), its width in pixels, the window's side k, the networks'
// sample type (16-bit on GPUs), the output to define; on a words output
// (out_view), `output` is the pixels and `words` the generator's output,
// which packs them.
struct Inputs {
    Halide::Func input;
    Halide::Expr width, height;
    int size = 3;
    Halide::Type sample_type = Halide::UInt(8);
    Halide::Func output;
    word_view::InputView view = word_view::InputView::bytes;
    word_view::OutputView out_view = word_view::OutputView::bytes;
    Halide::Func words;
};

// The stages every median algorithm has: the image with the clamp border (on
// a word view, taken out of the words, rows clamped) and the output.
struct Window : word_view::WordsOutput {
    using Inputs = median::Inputs;
    Halide::Var x{"x"}, y{"y"}, c{"c"};
    int size = 3;
    Halide::Func clamped{"clamped"};
    Halide::Func input_words{"input_words"};  // on a word view: (wx, y), clamped
    Halide::Func output;

    explicit Window(const Inputs &in) : WordsOutput(in.words, in.out_view), size(in.size) {
        using namespace Halide;
        if (in.view == word_view::InputView::words) {
            // Clamped by whole 16-byte groups, so an aligned vector of 4 words
            // stays one load (the word of a clamped x is all that feeds an output).
            input_words(wx, y, c) = in.input(word_view::clamp_to_groups(wx, in.width), clamp(y, 0, in.height - 1), c);
            clamped(x, y, c) = word_view::pixel(input_words, clamp(x, 0, in.width - 1), y, c);
        } else {
            clamped(x, y, c) = in.input(clamp(x, 0, in.width - 1), clamp(y, 0, in.height - 1), c);
        }
        output = in.output;
    }
};

struct Direct : Window {
    Halide::Func columns{"columns"};  // a Tuple: the k samples of column (x, y-r..y+r), sorted

    explicit Direct(const Inputs &in);
};

inline Direct::Direct(const Inputs &in) : Window(in) {
    using namespace Halide;
    const int r = size / 2;
    // 1. Column sorts.
    const int run = next_power_of_two(size);
    std::vector<Expr> column;
    for (int j = -r; j <= r; j++) column.push_back(clamped(x, y + j, c));
    columns(x, y, c) = Tuple(sorted(column));

    if (size == 3) {  // 2. the classic 3x3 selection
        auto col = [&](int i, int rank) { return columns(x + i, y, c)[rank]; };
        Expr max_of_min = max(col(-1, 0), col(0, 0), col(1, 0));
        Expr med_of_med = median3(col(-1, 1), col(0, 1), col(1, 1));
        Expr min_of_max = min(col(-1, 2), col(0, 2), col(1, 2));
        output(x, y, c) = median3(max_of_min, med_of_med, min_of_max);
        pack(output, y, c);
        return;
    }
    // 3. Sort the rows of the column-sorted window as well, and select.
    std::vector<std::vector<Expr>> rows(size);
    for (int rank = 0; rank < size; rank++) {
        std::vector<Expr> row;
        for (int i = -r; i <= r; i++) row.push_back(columns(x + i, y, c)[rank]);
        pad_to(row, run);
        odd_even_merge_sort(row);
        rows[rank] = row;
    }
    output(x, y, c) = median_of_sorted_rows(rows, size);
    pack(output, y, c);
}

// Element i of a Func's value (a Tuple of n elements, or one Expr when n is 1).
inline Halide::Expr element(const Halide::FuncRef &f, int i, int n) {
    return n == 1 ? Halide::Expr(f) : f[i];
}

inline int floor_div(int a, int b) { return (a - ((a % b) + b) % b) / b; }

// The separable algorithm in tiles of `tile` (each side at most k): the
// tile shapes its stages, so it is the constructor's argument (its schedules
// take it from their point), with the networks' sample type.
struct Separable : Window {
    Halide::Var tx{"tx"}, ty{"ty"}, v{"v"};
    Halide::Type sample_type;                   // the networks'
    Tile tile;                                  // as used: each side at most k
    Halide::Func tile_columns{"tile_columns"};  // (x, ty, c): per tile row t, column x's window sorted (th*k)
    Halide::Func by_tile{"by_tile"};            // (tx, v, ty, c) = tile_columns(tx*tw + v, ty, c)
    Halide::Func tile_medians{"tile_medians"};  // (tx, ty, c): the tile's tw*th medians, row by row

    Separable(const Inputs &in, Tile wanted, Halide::Type samples);

private:
    void define_tile_columns();
};

// For each row t of tile row ty, column x's k samples sorted: the rows the
// tile's windows share are sorted once, the others merged in per row.
inline void Separable::define_tile_columns() {
    using namespace Halide;
    const Type &type = sample_type;
    const int r = size / 2, th = tile.height;
    Expr top = ty * th;  // the tile's first output row
    auto sample = [&](int row) { return cast(type, clamped(x, top + row, c)); };
    std::vector<Expr> shared;
    for (int j = th - 1 - r; j <= r; j++) shared.push_back(sample(j));
    shared = sorted(shared);
    std::vector<Expr> values;
    for (int t = 0; t < th; t++) {
        std::vector<Expr> others;
        for (int j = t - r; j < th - 1 - r; j++) others.push_back(sample(j));
        for (int j = r + 1; j <= t + r; j++) others.push_back(sample(j));
        std::vector<Expr> column = merged(shared, sorted(others));
        values.insert(values.end(), column.begin(), column.end());
    }
    tile_columns(x, ty, c) = Tuple(values);
}

inline Separable::Separable(const Inputs &in, Tile wanted, Halide::Type samples) : Window(in), sample_type(samples) {
    using namespace Halide;
    tile = {std::min(wanted.width, size), std::min(wanted.height, size)};
    const int k = size, r = k / 2, tw = tile.width, th = tile.height;
    define_tile_columns();
    // Interleaved so that the tile at tx reads its neighbours at tx + constant
    // (on a GPU, lanes of a warp: shuffles).
    by_tile(tx, v, ty, c) = tile_columns(tx * tw + v, ty, c);
    // Column d of the tile (0: its first output's), row t, rank q.
    auto cell = [&](int d, int t, int q) { return by_tile(tx + floor_div(d, tw), d - tw * floor_div(d, tw), ty, c)[t * k + q]; };
    std::vector<Expr> medians;
    for (int t = 0; t < th; t++) {
        std::vector<std::vector<std::vector<Expr>>> rows(tw, std::vector<std::vector<Expr>>(k));
        for (int q = 0; q < k; q++) {
            std::vector<Expr> shared;
            for (int d = tw - 1 - r; d <= r; d++) shared.push_back(cell(d, t, q));
            shared = sorted(shared);
            for (int i = 0; i < tw; i++) {
                std::vector<Expr> others;
                for (int d = i - r; d < tw - 1 - r; d++) others.push_back(cell(d, t, q));
                for (int d = r + 1; d <= i + r; d++) others.push_back(cell(d, t, q));
                rows[i][q] = merged(shared, sorted(others));
            }
        }
        for (int i = 0; i < tw; i++) medians.push_back(median_of_sorted_rows(rows[i], k));
    }
    const int n = tw * th;
    if (n == 1) {
        tile_medians(tx, ty, c) = medians[0];
    } else {
        tile_medians(tx, ty, c) = Tuple(medians);
    }
    // Schedules split x by tw and y by th from 0, so the index is a constant.
    std::vector<Expr> mine;
    for (int i = 0; i < n; i++) mine.push_back(element(tile_medians(x / tw, y / th, c), i, n));
    output(x, y, c) = cast<uint8_t>(n == 1 ? mine[0] : mux((y % th) * tw + x % tw, mine));
    pack(output, y, c);
}

// The algorithm an autoscheduler is given (the generator's first).
using Default = Direct;

}  // namespace filterlab::median
