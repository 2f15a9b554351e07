// box, algorithm lane_running_sums: hw_running_sums' layout written in a
// warp's coordinates, so that a schedule can keep a lane's column sums in
// registers and take its neighbours' by warp shuffles (gpu_lanes).
//
// A band is 32 lanes; lane L owns `words` words (4 * words pixels) of the
// image's row, its group out_lanes * band - halo + L, where the halo lanes on
// each side (ceil(15 / (4 * words)): radius 15 reaches that far) sum their
// columns for their neighbours and make no output. The column sums run down
// strips of `rows` rows as running sums, two pixels a 32-bit word (even and
// odd bytes in 16-bit lanes, as define_running_sums' word view); then each
// output lane slides the window sum along its 4 * words pixels, taking the
// columns within r of its ends from the lanes beside it (up to `halo` away). A lane's group is
// loaded whole (its words clamped by group) and its bytes outside the image
// are replaced by the edge pixel, which is FILTERS.md's clamp border.
// The layout is the schedule's choice: a lane_running_sums schedule calls
// define_lane_sums with it before scheduling the stages.
#pragma once

#include "box.h"

namespace filterlab::box_pipeline {

// Radius 15 is the box's largest (box_generator.cpp), so a lane's neighbours
// on each side hold every column its window reaches.
constexpr int kLaneMaxRadius = 15;

// Word v of lane group `group` of row y, every byte outside the image the
// edge pixel of its side; the group's load is clamped whole (one vector).
inline Halide::Expr lane_word(const Pipeline &p, const Halide::Expr &v, const Halide::Expr &group,
                              const Halide::Expr &y, const Halide::Expr &c) {
    using namespace Halide;
    const int words = p.lanes.words;
    Expr yc = clamp(y, 0, p.height - 1), last = p.width - 1;
    Expr groups = (p.width + 15) / 16 * 4 / words;  // the view's words (word_view::width_fits) a group each
    Expr w = words * group + v;                     // the word in the row
    Expr inside = clamp(p.width - 4 * w, 0, 4);     // its bytes inside the image (w >= 0)
    Expr keep = select(w < 0, cast<uint32_t>(0),
                       select(inside >= 4, UInt(32).max(), (cast<uint32_t>(1) << cast<uint32_t>(8 * inside)) - 1));
    Expr left = p.image(0, yc, c) & 0xFF;
    Expr right = (p.image(last / 4, yc, c) >> cast<uint32_t>(8 * (last % 4))) & 0xFF;
    Expr edge = select(w < 0, left, right) * cast<uint32_t>(0x01010101);
    return (p.image(words * clamp(group, 0, groups - 1) + v, yc, c) & keep) | (edge & ~keep);
}

inline void define_lane_sums(Pipeline &p, LaneLayout layout) {
    using namespace Halide;
    layout.halo = (kLaneMaxRadius + 4 * layout.words - 1) / (4 * layout.words);
    layout.out_lanes = 32 - 2 * layout.halo;
    p.lanes = layout;
    const Var &v = p.v, &half = p.half, &lane = p.lane, &band = p.band, &c = p.c, &y = p.y;
    const Expr &r = p.radius;
    const int run_pixels = 4 * layout.words;  // a lane's
    Expr group = layout.out_lanes * band - layout.halo + lane;
    define_strip_recurrence(
        p, p.lane_columns, {v, half, lane, band}, UInt(32),
        [&](Expr yy) { return word_view::pixel_pair(lane_word(p, v, group, yy, c), half); },
        layout.rows);
    // Column `offset` (an Expr, a constant once r is and the loops are
    // unrolled) from the start of run g's pixels, in lane g's band.
    auto column = [&](Expr offset, Expr g) {
        Expr lane_of_g = g % layout.out_lanes + layout.halo, band_of_g = g / layout.out_lanes;
        Expr cc = offset % run_pixels;  // Halide's: 0 .. run_pixels - 1, the lane offset / run_pixels (floored) away
        return word_view::unpacked(p.lane_columns, cc,
                                   {lane_of_g + offset / run_pixels, band_of_g, y % layout.rows, y / layout.rows, c});
    };
    const Var &i = p.i, &g = p.run;
    RDom window(-r, 2 * r + 1, "window"), across(1, run_pixels - 1, "lane_across");
    p.lane_window = window;
    p.lane_across = across;
    p.lane_sums(i, g, y, c) = undef<uint32_t>();
    p.lane_sums(0, g, y, c) = cast<uint32_t>(0);
    p.lane_sums(0, g, y, c) += column(window, g);
    p.lane_sums(across, g, y, c) =
        p.lane_sums(across - 1, g, y, c) + column(across + r, g) - column(across - r - 1, g);
    p.window_sum(p.x, y, c) = p.lane_sums(p.x % run_pixels, p.x / run_pixels, y, c);
    define_output(p, true);  // its schedules specialise on every radius
}

}  // namespace filterlab::box_pipeline
