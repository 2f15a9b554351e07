// nlmeans, FILTERS.md: non-local means in float. For each search offset
// (dx, dy) in [-s, s]^2:
//   diff(x, y)  = sum_c (J(x, y, c) - J(x+dx, y+dy, c))^2      squared differences
//   patch(x, y) = sum_{|i|,|j|<=p} diff(x+i, y+j)              = C*P*d^2, a box sum
//   weight      = exp(-patch / (C*P*h^2))
// then u = sum w*J(x+dx, y+dy, c) / sum w, rounded half up after clamping.
// The offsets are pure dimensions (dx, dy) of the per-offset stages, so a
// schedule decides how much of which offset lives where; the accumulation
// is the one reduction over them. Four algorithms, each a type holding only
// its stages (schedules/nlmeans/ holds the schedules, each naming its type):
//   Direct     every offset of the window, as FILTERS.md writes it;
//   Symmetric  the patch distance is symmetric, d^2(x; d) = d^2(x + d; -d)
//              (bit for bit: the same squares summed in the same order), so
//              only the offsets of half the window H = {dy > 0} or {dy = 0,
//              dx > 0} have weights, each used twice: w(x; d) J(x + d) for x
//              and, gathered at x, w(x - d; d) J(x - d) for the offset -d.
//              The zero offset weighs exp(0) = 1. A tile's weights per offset
//              cover the tile and the tile moved by -d: for a 32 x 32 tile and
//              s = 10, about 0.7x the exponentials of Direct.
//   SymmetricScatter  the same symmetry as hw_symmetric uses it: each weight
//              of a source S and offset d in H computed once and scattered
//              twice, w(S; d) J(S + d) to S and w(S; d) J(S) to S + d (an
//              update over sources and offsets whose targets overlap: a
//              schedule runs it with atomic adds, so the order of the sums,
//              not their terms, varies from run to run). Sources run over
//              the image and s around it above and to the sides (their
//              backward terms land inside); targets outside are dropped.
//   GatherScatter  the same weights as two reductions a schedule may fuse
//              (compute_with): a gather at each source and a scatter to
//              each target.
#pragma once

#include "Halide.h"

namespace filterlab::nlmeans {

// What the generator hands every algorithm: the image, its size and
// channels C, the patch radius p, the search radius s, h, the output to define.
struct Inputs {
    Halide::Func input;
    Halide::Expr width, height, channels, patch_radius, search_radius, h;
    Halide::Func output;
};

// The stages every NL-means algorithm has: the weights of each offset, the
// samples they weigh, the accumulation (defined by each algorithm) and the output.
struct Weights {
    using Inputs = nlmeans::Inputs;
    Halide::Var x{"x"}, y{"y"}, c{"c"}, dx{"dx"}, dy{"dy"};
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

protected:
    explicit Weights(const Inputs &in);
    // J (or 1) at (xx, yy), channel c.
    Halide::Expr sample(const Halide::Expr &xx, const Halide::Expr &yy) const { return sample_or_one(xx, yy, c); }
    void define_output(const Halide::Func &output_of);
};

inline Weights::Weights(const Inputs &in) : channels(in.channels), patch_radius(in.patch_radius), input(in.input) {
    using namespace Halide;
    clamped(x, y, c) = cast<float>(input(clamp(x, 0, in.width - 1), clamp(y, 0, in.height - 1), c));

    RDom ch(0, channels, "ch");
    Expr difference = clamped(x, y, ch) - clamped(x + dx, y + dy, ch);
    diff(x, y, dx, dy) = sum(difference * difference);

    // Named reductions rather than sum(), so that schedules can unroll them.
    across = RDom(-patch_radius, 2 * patch_radius + 1, "across");
    patch_rows(x, y, dx, dy) = 0.0f;
    patch_rows(x, y, dx, dy) += diff(x + across, y, dx, dy);
    down = RDom(-patch_radius, 2 * patch_radius + 1, "down");
    patch(x, y, dx, dy) = 0.0f;
    patch(x, y, dx, dy) += patch_rows(x, y + down, dx, dy);

    Expr patch_size = cast<float>((2 * patch_radius + 1) * (2 * patch_radius + 1));
    Expr inverse_scale = 1.0f / (cast<float>(channels) * patch_size * in.h * in.h);  // 1 / (C*P*h^2)
    weight(x, y, dx, dy) = exp(-patch(x, y, dx, dy) * inverse_scale);

    sample_or_one(x, y, c) = select(c < channels, clamped(x, y, min(c, channels - 1)), 1.0f);
}

inline void Weights::define_output(const Halide::Func &output_of) {
    using namespace Halide;
    Expr u = accum(x, y, c) / accum(x, y, channels);
    output = output_of;
    output(x, y, c) = cast<uint8_t>(floor(clamp(u, 0.0f, 255.0f) + 0.5f));
}

// Every offset of the search window weighs its sample.
struct Direct : Weights {
    Halide::RDom offsets;  // (dx, dy) over the search window

    explicit Direct(const Inputs &in) : Weights(in) {
        using namespace Halide;
        const Expr &sr = in.search_radius;
        offsets = RDom(-sr, 2 * sr + 1, -sr, 2 * sr + 1, "offsets");
        const RVar &ox = offsets.x, &oy = offsets.y;
        accum(x, y, c) = 0.0f;
        accum(x, y, c) += weight(x, y, ox, oy) * sample(x + ox, y + oy);
        define_output(in.output);
    }
};

// The offsets of half the window, each weight used for d and gathered for -d.
struct Symmetric : Weights {
    Halide::RDom offsets;  // (dx, dy) over the window's half H

    explicit Symmetric(const Inputs &in) : Weights(in) {
        using namespace Halide;
        const Expr &sr = in.search_radius;
        offsets = RDom(-sr, 2 * sr + 1, 0, sr + 1, "offsets");
        const RVar &ox = offsets.x, &oy = offsets.y;
        offsets.where(oy > 0 || ox > 0);
        accum(x, y, c) = sample(x, y);  // the zero offset, weight 1
        accum(x, y, c) += weight(x, y, ox, oy) * sample(x + ox, y + oy) +
                          weight(x - ox, y - oy, ox, oy) * sample(x - ox, y - oy);
        define_output(in.output);
    }
};

// Each weight of a source and an offset of H scattered to both its targets.
struct SymmetricScatter : Weights {
    Halide::RDom scatter;  // (k, sx, sy, dx, dy), k = 0 forward, 1 backward

    explicit SymmetricScatter(const Inputs &in) : Weights(in) {
        using namespace Halide;
        const Expr &sr = in.search_radius, &width = in.width, &height = in.height;
        scatter = RDom({{0, 2}, {-sr, width + 2 * sr}, {-sr, height + sr}, {-sr, 2 * sr + 1}, {0, sr + 1}}, "scatter");
        const RVar &k = scatter[0], &sx = scatter[1], &sy = scatter[2], &ox = scatter[3], &oy = scatter[4];
        Expr tx = sx + k * ox, ty = sy + k * oy;  // the target: S itself (k = 0) or S + d
        scatter.where(oy > 0 || ox > 0);
        scatter.where(tx >= 0 && tx < width && ty >= 0 && ty < height);
        accum(x, y, c) = sample(x, y);  // the zero offset, weight 1
        accum(tx, ty, c) += weight(sx, sy, ox, oy) * sample(sx + (1 - k) * ox, sy + (1 - k) * oy);
        define_output(in.output);
    }
};

// The symmetric weights as two reductions that share each weight, both over
// sources S (the image and s around it) and offsets d of H: `forward` adds
// w(S; d) J(S + d) to S itself (each S its own sum), `backward`
// scatters w(S; d) J(S) to S + d (targets overlap: atomic adds). Neither reads
// the other and their loops have the same bounds, so a schedule may fuse them
// (compute_with) and compute each weight once for both.
struct GatherScatter : Weights {
    Halide::RDom gather;   // (sx, sy, dx, dy): sources in the image
    Halide::RDom scatter;  // (sx, sy, dx, dy): sources whose target S + d is in the image
    Halide::Func forward{"forward"}, backward{"backward"};

    explicit GatherScatter(const Inputs &in) : Weights(in) {
        using namespace Halide;
        const Expr &sr = in.search_radius, &width = in.width, &height = in.height;
        const Region sources_and_half{{-sr, width + 2 * sr}, {-sr, height + sr}, {-sr, 2 * sr + 1}, {0, sr + 1}};
        auto inside = [&](const Expr &tx, const Expr &ty) { return tx >= 0 && tx < width && ty >= 0 && ty < height; };
        gather = RDom(sources_and_half, "sources");  // one name: compute_with matches loops by name
        gather.where(gather[3] > 0 || gather[2] > 0);
        gather.where(inside(gather[0], gather[1]));
        forward(x, y, c) = 0.0f;
        // Stored through a clamp that never clamps (the sources are in the image):
        // compute_with fuses a scatter's loops only with loops of the same kind
        // (an RVar the store index uses impurely), as is backward's.
        forward(clamp(gather[0], 0, width - 1), clamp(gather[1], 0, height - 1), c) +=
            weight(gather[0], gather[1], gather[2], gather[3]) * sample(gather[0] + gather[2], gather[1] + gather[3]);
        scatter = RDom(sources_and_half, "sources");
        const RVar &sx = scatter[0], &sy = scatter[1], &ox = scatter[2], &oy = scatter[3];
        scatter.where(oy > 0 || ox > 0);
        scatter.where(inside(sx + ox, sy + oy));
        backward(x, y, c) = 0.0f;
        backward(sx + ox, sy + oy, c) += weight(sx, sy, ox, oy) * sample(sx, sy);
        accum(x, y, c) = sample(x, y) + forward(x, y, c) + backward(x, y, c);  // the zero offset, weight 1
        define_output(in.output);
    }
};

// The algorithm an autoscheduler is given (the generator's first).
using Default = Direct;

}  // namespace filterlab::nlmeans
