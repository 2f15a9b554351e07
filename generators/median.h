// median filter, FILTERS.md: the ((k^2+1)/2)-th smallest of the k x k window,
// k in {3, 5, 7} (fixed when the pipeline is compiled), clamp border.
// Halide has no sort, so the median is a min/max network (median_networks.h).
// Two algorithms; schedules/median/ holds the schedules, each naming its own.
//
// direct: every output sorts the columns of its window (a Func, so that
// neighbouring outputs may share them), then the rows of the column-sorted
// window, and selects among the cells that can still hold the median.
//
// separable (Adams, "Fast Median Filters Using Separable Sorting Networks",
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

namespace filterlab::median_pipeline {

// The outputs each evaluation of the separable algorithm makes.
struct Tile {
    int width = 1, height = 1;
};

struct Pipeline {
    Halide::Var x{"x"}, y{"y"}, c{"c"};
    int size = 3;
    Halide::Func clamped{"clamped"};
    // On a word view (READS("words"), word_view.h): the input's words, rows clamped.
    Halide::Var wx{"wx"};
    Halide::Func words{"words"};
    Halide::Func output;
    // direct
    Halide::Func columns{"columns"};  // a Tuple: the k samples of column (x, y-r..y+r), sorted
    // separable
    Halide::Var tx{"tx"}, ty{"ty"}, v{"v"};
    Halide::Type sample_type = Halide::UInt(8);  // the networks' (16-bit on GPUs)
    Tile tile;                                   // as used: each side at most k
    Halide::Func tile_columns{"tile_columns"};  // (x, ty, c): per tile row t, column x's window sorted (th*k)
    Halide::Func by_tile{"by_tile"};            // (tx, v, ty, c) = tile_columns(tx*tw + v, ty, c)
    Halide::Func tile_medians{"tile_medians"};  // (tx, ty, c): the tile's tw*th medians, row by row
};

inline void define_direct(Pipeline &p) {
    using namespace Halide;
    const Var &x = p.x, &y = p.y, &c = p.c;
    const int size = p.size, r = size / 2;
    // 1. Column sorts.
    const int run = next_power_of_two(size);
    std::vector<Expr> column;
    for (int j = -r; j <= r; j++) column.push_back(p.clamped(x, y + j, c));
    p.columns(x, y, c) = Tuple(sorted(column));

    if (size == 3) {  // 2. the classic 3x3 selection
        auto col = [&](int i, int rank) { return p.columns(x + i, y, c)[rank]; };
        Expr max_of_min = max(col(-1, 0), col(0, 0), col(1, 0));
        Expr med_of_med = median3(col(-1, 1), col(0, 1), col(1, 1));
        Expr min_of_max = min(col(-1, 2), col(0, 2), col(1, 2));
        p.output(x, y, c) = median3(max_of_min, med_of_med, min_of_max);
        return;
    }
    // 3. Sort the rows of the column-sorted window as well, and select.
    std::vector<std::vector<Expr>> rows(size);
    for (int rank = 0; rank < size; rank++) {
        std::vector<Expr> row;
        for (int i = -r; i <= r; i++) row.push_back(p.columns(x + i, y, c)[rank]);
        pad_to(row, run);
        odd_even_merge_sort(row);
        rows[rank] = row;
    }
    p.output(x, y, c) = median_of_sorted_rows(rows, size);
}

// Element i of a Func's value (a Tuple of n elements, or one Expr when n is 1).
inline Halide::Expr element(const Halide::FuncRef &f, int i, int n) {
    return n == 1 ? Halide::Expr(f) : f[i];
}

inline int floor_div(int a, int b) { return (a - ((a % b) + b) % b) / b; }

// For each row t of tile row ty, column x's k samples sorted: the rows the
// tile's windows share are sorted once, the others merged in per row.
inline void define_tile_columns(Pipeline &p, const Halide::Type &type) {
    using namespace Halide;
    const Var &x = p.x, &ty = p.ty, &c = p.c;
    const int r = p.size / 2, th = p.tile.height;
    Expr top = ty * th;  // the tile's first output row
    auto sample = [&](int row) { return cast(type, p.clamped(x, top + row, c)); };
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
    p.tile_columns(x, ty, c) = Tuple(values);
}

// The separable algorithm in tiles of `tile` (each side at most k). Its tile
// shapes the algorithm's stages, and it is the schedule's choice: a separable
// schedule calls this with its point's tile before scheduling the stages.
inline void define_separable(Pipeline &p, Tile tile) {
    using namespace Halide;
    const Var &x = p.x, &y = p.y, &c = p.c, &tx = p.tx, &ty = p.ty, &v = p.v;
    p.tile = {std::min(tile.width, p.size), std::min(tile.height, p.size)};
    const int k = p.size, r = k / 2, tw = p.tile.width, th = p.tile.height;
    define_tile_columns(p, p.sample_type);
    // Interleaved so that the tile at tx reads its neighbours at tx + constant
    // (on a GPU, lanes of a warp: shuffles).
    p.by_tile(tx, v, ty, c) = p.tile_columns(tx * tw + v, ty, c);
    // Column d of the tile (0: its first output's), row t, rank q.
    auto cell = [&](int d, int t, int q) { return p.by_tile(tx + floor_div(d, tw), d - tw * floor_div(d, tw), ty, c)[t * k + q]; };
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
        p.tile_medians(tx, ty, c) = medians[0];
    } else {
        p.tile_medians(tx, ty, c) = Tuple(medians);
    }
    // Schedules split x by tw and y by th from 0, so the index is a constant.
    std::vector<Expr> mine;
    for (int i = 0; i < n; i++) mine.push_back(element(p.tile_medians(x / tw, y / th, c), i, n));
    p.output(x, y, c) = cast<uint8_t>(n == 1 ? mine[0] : mux((y % th) * tw + x % tw, mine));
}

// `algorithm` is the one the schedule names (schedule_registry.h);
// `sample_type` is separable's, whose schedule defines it at its tile;
// `input` is the image as `view` says (word_view.h), `width` in pixels.
inline void define(Pipeline &p, const std::string &algorithm, const Halide::Type &sample_type,
                   const Halide::Func &input, const Halide::Expr &width, const Halide::Expr &height, int size,
                   Halide::Func output, word_view::InputView view = word_view::InputView::bytes) {
    using namespace Halide;
    const Var &x = p.x, &y = p.y, &c = p.c;
    p.size = size;
    p.sample_type = sample_type;
    if (view == word_view::InputView::words) {
        // Clamped by whole 16-byte groups, so an aligned vector of 4 words
        // stays one load (the word of a clamped x is all that feeds an output).
        p.words(p.wx, y, c) = input(word_view::clamp_to_groups(p.wx, width), clamp(y, 0, height - 1), c);
        p.clamped(x, y, c) = word_view::pixel(p.words, clamp(x, 0, width - 1), y, c);
    } else {
        p.clamped(x, y, c) = input(clamp(x, 0, width - 1), clamp(y, 0, height - 1), c);
    }
    p.output = output;
    if (algorithm == "direct") {
        define_direct(p);
    } else if (algorithm == "separable") {
        return;  // define_separable, called by the schedule
    } else {
        throw std::invalid_argument("median: no algorithm '" + algorithm + "'");
    }
}

}  // namespace filterlab::median_pipeline
