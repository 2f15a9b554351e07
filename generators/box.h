// box (mean) filter, FILTERS.md: out = (sum of the (2r+1)^2 window + n/2) / n,
// clamp border. The algorithms only; schedules/box/ holds the schedules, each
// naming the algorithm it schedules.
#pragma once

#include <stdexcept>
#include <string>

#include "Halide.h"
#include "arithmetic.h"

namespace filterlab::box_pipeline {

// Running sums restart every kStripRows rows and every kChunk columns: the
// warm-up of each strip (2r+1 rows) and chunk (2r+1 columns) is their cost.
constexpr int kStripRows = 16;
constexpr int kChunk = 16;

struct Pipeline {
    Halide::Var x{"x"}, y{"y"}, c{"c"};
    Halide::Expr radius;
    Halide::Func clamped{"clamped"};      // input with the clamp border rule
    Halide::Func output;                  // the generator's output
    // direct: each output sums its window, 2(2r+1) adds: the cost grows with r.
    Halide::Func row_sum{"row_sum"};        // horizontal sum of 2r+1 samples (fits 16 bits)
    Halide::Func window_sum{"window_sum"};  // vertical sum of 2r+1 row sums
    // running_sums: each sum is the previous one plus the sample entering the
    // window minus the one leaving it: 4 adds per output whatever r.
    Halide::Var k{"k"}, strip{"strip"}, chunk{"chunk"};
    Halide::RVar down, across;   // the recurrences' steps (down a strip, across a chunk)
    Halide::Func column_sums{"column_sums"};  // (x, k, strip): rows strip*16+k-r .. +r, 16 bits
    Halide::Func window_sums{"window_sums"};  // (k, chunk, y): columns chunk*16+k-r .. +r of column_sums
};

// Separable: row sums first, so a line buffer of 2r+1 row sums can slide down
// the image (see cpu_sliding).
inline void define_direct(Pipeline &p) {
    using namespace Halide;
    const Var &x = p.x, &y = p.y, &c = p.c;
    RDom i(-p.radius, 2 * p.radius + 1, "i");
    p.row_sum(x, y, c) = sum(cast<uint16_t>(p.clamped(x + i, y, c)));
    RDom j(-p.radius, 2 * p.radius + 1, "j");
    p.window_sum(x, y, c) = sum(cast<uint32_t>(p.row_sum(x, y + j, c)));
}

// Vertical then horizontal running sums, as recurrences: the first sum of a
// strip (chunk) is summed whole, each next one adds the entering sample and
// subtracts the leaving one. 16-bit column sums wrap on the subtraction and
// come back exact (the true sum, at most 31 * 255, fits).
inline void define_running_sums(Pipeline &p) {
    using namespace Halide;
    const Var &x = p.x, &y = p.y, &c = p.c, &k = p.k, &strip = p.strip, &chunk = p.chunk;
    const Expr &r = p.radius;
    auto sample = [&](Expr xx, Expr yy) { return cast<uint16_t>(p.clamped(xx, yy, c)); };

    RDom j(-r, 2 * r + 1, "j"), down(1, kStripRows - 1, "down");
    p.down = down;
    Expr top = strip * kStripRows;
    p.column_sums(x, k, strip, c) = undef<uint16_t>();
    p.column_sums(x, 0, strip, c) = cast<uint16_t>(0);
    p.column_sums(x, 0, strip, c) += sample(x, top + j);
    p.column_sums(x, down, strip, c) =
        p.column_sums(x, down - 1, strip, c) + sample(x, top + down + r) - sample(x, top + down - r - 1);
    auto column = [&](Expr xx) { return cast<uint32_t>(p.column_sums(xx, y % kStripRows, y / kStripRows, c)); };

    RDom i(-r, 2 * r + 1, "i"), across(1, kChunk - 1, "across");
    p.across = across;
    Expr left = chunk * kChunk;
    p.window_sums(k, chunk, y, c) = undef<uint32_t>();
    p.window_sums(0, chunk, y, c) = cast<uint32_t>(0);
    p.window_sums(0, chunk, y, c) += column(left + i);
    p.window_sums(across, chunk, y, c) =
        p.window_sums(across - 1, chunk, y, c) + column(left + across + r) - column(left + across - r - 1);
    p.window_sum(x, y, c) = p.window_sums(x % kChunk, x / kChunk, y, c);
}

// `algorithm` is the one the schedule names (schedule_registry.h).
inline void define(Pipeline &p, const std::string &algorithm, const Halide::Func &input, const Halide::Expr &width,
                   const Halide::Expr &height, const Halide::Expr &radius, Halide::Func output) {
    using namespace Halide;
    const Var &x = p.x, &y = p.y, &c = p.c;
    p.radius = radius;
    p.clamped(x, y, c) = input(clamp(x, 0, width - 1), clamp(y, 0, height - 1), c);
    if (algorithm == "direct") {
        define_direct(p);
    } else if (algorithm == "running_sums") {
        define_running_sums(p);
    } else {
        throw std::invalid_argument("box: no algorithm '" + algorithm + "'");
    }
    Expr n = (2 * radius + 1) * (2 * radius + 1);
    p.output = output;
    p.output(x, y, c) = cast<uint8_t>(arithmetic::divide_round_half_up(p.window_sum(x, y, c), n));
}

}  // namespace filterlab::box_pipeline
