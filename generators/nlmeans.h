// nlmeans, FILTERS.md: non-local means in float. For each search offset
// (dx, dy) in [-s, s]^2:
//   diff(x, y)  = sum_c (J(x, y, c) - J(x+dx, y+dy, c))^2      squared differences
//   patch(x, y) = sum_{|i|,|j|<=p} diff(x+i, y+j)              = C*P*d^2, a box sum
//   weight      = exp(-patch / (C*P*h^2))
// then u = sum w*J(x+dx, y+dy, c) / sum w, rounded half up after clamping.
// The offsets are pure dimensions (dx, dy) of the per-offset stages, so a
// schedule decides how much of which offset lives where; the accumulation
// is the one reduction over them. Three algorithms (schedules/nlmeans/ holds
// the schedules, each naming its own):
//   direct     every offset of the window, as FILTERS.md writes it;
//   symmetric  the patch distance is symmetric, d^2(x; d) = d^2(x + d; -d)
//              (bit for bit: the same squares summed in the same order), so
//              only the offsets of half the window H = {dy > 0} or {dy = 0,
//              dx > 0} have weights, each used twice: w(x; d) J(x + d) for x
//              and, gathered at x, w(x - d; d) J(x - d) for the offset -d.
//              The zero offset weighs exp(0) = 1. A tile's weights per offset
//              cover the tile and the tile moved by -d: for a 32 x 32 tile and
//              s = 10, about 0.7x the exponentials of `direct`.
//   symmetric_scatter  the same symmetry as hw_symmetric uses it: each weight
//              of a source S and offset d in H computed once and scattered
//              twice, w(S; d) J(S + d) to S and w(S; d) J(S) to S + d (an
//              update over sources and offsets whose targets overlap: a
//              schedule runs it with atomic adds, so the order of the sums,
//              not their terms, varies from run to run). Sources run over
//              the image and s around it above and to the sides (their
//              backward terms land inside); targets outside are dropped.
#pragma once

#include <stdexcept>
#include <string>

#include "Halide.h"

namespace filterlab::nlmeans_pipeline {

struct Pipeline {
    Halide::Var x{"x"}, y{"y"}, c{"c"}, dx{"dx"}, dy{"dy"};
    Halide::RDom offsets;                  // (dx, dy) over the search window (symmetric: its half H)
    Halide::RDom scatter;                  // symmetric_scatter: (k, sx, sy, dx, dy), k = 0 forward, 1 backward
    Halide::RDom across, down;             // the 2p+1 columns, and rows, of a patch
    Halide::Expr channels;                 // C
    Halide::Expr patch_radius;             // p
    Halide::Func input;                    // the generator's input (a schedule may stage it: input.in())
    Halide::Func clamped{"clamped"};       // J: the input as float, clamp border
    Halide::Func diff{"diff"};             // per offset: squared differences summed over channels
    Halide::Func patch_rows{"patch_rows"};  // per offset: diff summed over the 2p+1 columns of a patch row
    Halide::Func patch{"patch_sum"};       // per offset: patch_rows summed over 2p+1 rows, C*P*d^2
    Halide::Func weight{"weight"};         // per offset: exp(-d^2 / h^2)
    Halide::Func sample_or_one{"sample_or_one"};  // J for c < C, 1 for c = C (so the sum of weights rides along)
    Halide::Func accum{"accum"};           // sum over offsets of weight * sample_or_one: numerators and denominator
    Halide::Func output;
};

// `algorithm` is the one the schedule names (schedule_registry.h).
inline void define(Pipeline &p, const std::string &algorithm, const Halide::Func &input, const Halide::Expr &width,
                   const Halide::Expr &height, const Halide::Expr &channels, const Halide::Expr &patch_radius,
                   const Halide::Expr &search_radius, const Halide::Expr &h, Halide::Func output) {
    using namespace Halide;
    const Var &x = p.x, &y = p.y, &c = p.c, &dx = p.dx, &dy = p.dy;
    p.channels = channels;
    p.patch_radius = patch_radius;
    p.input = input;
    p.clamped(x, y, c) = cast<float>(input(clamp(x, 0, width - 1), clamp(y, 0, height - 1), c));

    RDom ch(0, channels, "ch");
    Expr difference = p.clamped(x, y, ch) - p.clamped(x + dx, y + dy, ch);
    p.diff(x, y, dx, dy) = sum(difference * difference);

    // Named reductions rather than sum(), so that schedules can unroll them.
    p.across = RDom(-patch_radius, 2 * patch_radius + 1, "across");
    p.patch_rows(x, y, dx, dy) = 0.0f;
    p.patch_rows(x, y, dx, dy) += p.diff(x + p.across, y, dx, dy);
    p.down = RDom(-patch_radius, 2 * patch_radius + 1, "down");
    p.patch(x, y, dx, dy) = 0.0f;
    p.patch(x, y, dx, dy) += p.patch_rows(x, y + p.down, dx, dy);

    Expr patch_size = cast<float>((2 * patch_radius + 1) * (2 * patch_radius + 1));
    Expr inverse_scale = 1.0f / (cast<float>(channels) * patch_size * h * h);  // 1 / (C*P*h^2)
    p.weight(x, y, dx, dy) = exp(-p.patch(x, y, dx, dy) * inverse_scale);

    p.sample_or_one(x, y, c) = select(c < channels, p.clamped(x, y, min(c, channels - 1)), 1.0f);
    const Expr &sr = search_radius;
    auto sample = [&](Expr xx, Expr yy) { return p.sample_or_one(xx, yy, c); };
    if (algorithm == "direct") {
        p.offsets = RDom(-sr, 2 * sr + 1, -sr, 2 * sr + 1, "offsets");
        const RVar &ox = p.offsets.x, &oy = p.offsets.y;
        p.accum(x, y, c) = 0.0f;
        p.accum(x, y, c) += p.weight(x, y, ox, oy) * sample(x + ox, y + oy);
    } else if (algorithm == "symmetric") {
        p.offsets = RDom(-sr, 2 * sr + 1, 0, sr + 1, "offsets");
        const RVar &ox = p.offsets.x, &oy = p.offsets.y;
        p.offsets.where(oy > 0 || ox > 0);
        p.accum(x, y, c) = sample(x, y);  // the zero offset, weight 1
        p.accum(x, y, c) += p.weight(x, y, ox, oy) * sample(x + ox, y + oy) +
                            p.weight(x - ox, y - oy, ox, oy) * sample(x - ox, y - oy);
    } else if (algorithm == "symmetric_scatter") {
        p.scatter = RDom({{0, 2}, {-sr, width + 2 * sr}, {-sr, height + sr}, {-sr, 2 * sr + 1}, {0, sr + 1}}, "scatter");
        const RVar &k = p.scatter[0], &sx = p.scatter[1], &sy = p.scatter[2], &ox = p.scatter[3], &oy = p.scatter[4];
        Expr tx = sx + k * ox, ty = sy + k * oy;  // the target: S itself (k = 0) or S + d
        p.scatter.where(oy > 0 || ox > 0);
        p.scatter.where(tx >= 0 && tx < width && ty >= 0 && ty < height);
        p.accum(x, y, c) = sample(x, y);  // the zero offset, weight 1
        p.accum(tx, ty, c) += p.weight(sx, sy, ox, oy) * sample(sx + (1 - k) * ox, sy + (1 - k) * oy);
    } else {
        throw std::invalid_argument("nlmeans: no algorithm '" + algorithm + "'");
    }

    Expr u = p.accum(x, y, c) / p.accum(x, y, channels);
    p.output = output;
    p.output(x, y, c) = cast<uint8_t>(floor(clamp(u, 0.0f, 255.0f) + 0.5f));
}

}  // namespace filterlab::nlmeans_pipeline
