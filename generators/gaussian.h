// gaussian, FILTERS.md: 5x5 blur in exact fixed point,
//   out = (sum_i sum_j w_i w_j I(x+j, y+i) + 32768) >> 16,
// with integer weights w_-2..w_2 (symmetric, summing to 256) computed from
// sigma on the host as the contract says, and passed in. Written separably:
// the sum is exact in integers, so this is the contract's function bit for
// bit. A row pass of at most 256 * 255 = 65280 fits 16 bits.
// The algorithm only; schedules/gaussian/ holds the schedules.
#pragma once

#include "Halide.h"

namespace filterlab::gaussian_pipeline {

struct Pipeline {
    Halide::Var x{"x"}, y{"y"}, c{"c"};
    Halide::Func clamped{"clamped"};
    Halide::Func row{"row"};        // horizontal 5-tap pass, u16
    Halide::Func column{"column"};  // vertical 5-tap pass of the row pass, u32
    Halide::Func output;
};

// What the contract's weights always are: non-negative, summing to 256 (the
// generators require it of the caller's).
inline Halide::Expr contract_weights(const Halide::Expr &w0, const Halide::Expr &w1, const Halide::Expr &w2) {
    return w0 >= 0 && w1 >= 0 && w2 >= 0 && w0 + 2 * w1 + 2 * w2 == 256;
}

inline void define(Pipeline &p, const Halide::Func &input, const Halide::Expr &width, const Halide::Expr &height,
                   const Halide::Expr &w0, const Halide::Expr &w1, const Halide::Expr &w2, Halide::Func output) {
    using namespace Halide;
    const Var &x = p.x, &y = p.y, &c = p.c;
    p.clamped(x, y, c) = input(clamp(x, 0, width - 1), clamp(y, 0, height - 1), c);
    auto tap = [](const Expr &w, const Expr &sample, Type t) { return cast(t, w) * cast(t, sample); };
    const Type u16 = UInt(16), u32 = UInt(32);
    p.row(x, y, c) = tap(w2, p.clamped(x - 2, y, c), u16) + tap(w1, p.clamped(x - 1, y, c), u16) +
                     tap(w0, p.clamped(x, y, c), u16) + tap(w1, p.clamped(x + 1, y, c), u16) +
                     tap(w2, p.clamped(x + 2, y, c), u16);
    p.column(x, y, c) = tap(w2, p.row(x, y - 2, c), u32) + tap(w1, p.row(x, y - 1, c), u32) +
                        tap(w0, p.row(x, y, c), u32) + tap(w1, p.row(x, y + 1, c), u32) +
                        tap(w2, p.row(x, y + 2, c), u32);
    p.output = output;
    p.output(x, y, c) = cast<uint8_t>((p.column(x, y, c) + 32768) >> 16);
}

}  // namespace filterlab::gaussian_pipeline
