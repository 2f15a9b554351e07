// box, algorithm LaneRunningSums: RunningSums' layout as hw_running_sums has it, written
// in a warp's coordinates, so that a schedule can keep a lane's column sums in
// registers and take its neighbours' by warp shuffles (gpu_lanes).
//
// A band is 32 lanes; lane L owns `words` words (4 * words pixels) of the
// image's row, its group out_lanes * band - halo + L, where the halo lanes on
// each side (ceil(kBoxMaxRadius / (4 * words)): the largest radius reaches that
// far) sum their columns for their neighbours and make no output. The column
// sums run down strips of `rows` rows as running sums, two pixels a 32-bit word
// (even and odd bytes in 16-bit lanes, as RunningSums' word view); then each
// output lane slides the window sum along its 4 * words pixels, taking the
// columns within r of its ends from the lanes beside it (up to `halo` away). A
// lane's group is loaded whole (its words clamped by group) and its bytes
// outside the image are replaced by the edge pixel, which is FILTERS.md's clamp
// border. The layout (rows, words) is the algorithm's constructor argument: its
// schedules take it from their point. It reads the image as words.
#pragma once

#include <stdexcept>

#include "box.h"
#include "contract_ranges.h"

namespace filterlab::box {

// The lane layout: a lane's words, a strip's rows; the halo lanes a side
// and the lanes that make outputs follow from the words.
struct LaneLayout {
    int rows = 8, words = 4;
    int halo = 0, out_lanes = 32;
};

struct LaneRunningSums : Window {
    LaneLayout lanes;
    Halide::Var v{"v"}, half{"half"}, lane{"lane"}, band{"band"}, i{"i"}, run{"run"}, k{"k"}, strip{"strip"};
    Halide::RVar down;                      // the column sums' step down a strip
    Halide::RVar lane_window, lane_across;  // the first window of a run, and the slide along it
    Halide::Func image{"image"};            // the generator's input words, unclamped
    Halide::Func lane_columns{"lane_columns"};  // (v, half, lane, band, k, strip, c): packed column sums
    Halide::Func lane_sums{"lane_sums"};        // (i, run, y, c): the window sum at pixel i of run `run`

    LaneRunningSums(const Inputs &in, LaneLayout layout);

private:
    Halide::Expr lane_word(const Halide::Expr &v, const Halide::Expr &group, const Halide::Expr &y,
                           const Halide::Expr &c) const;
};

// Word v of lane group `group` of row y, every byte outside the image the
// edge pixel of its side; the group's load is clamped whole (one vector).
inline Halide::Expr LaneRunningSums::lane_word(const Halide::Expr &v, const Halide::Expr &group,
                              const Halide::Expr &y, const Halide::Expr &c) const {
    using namespace Halide;
    const int words = lanes.words;
    Expr yc = clamp(y, 0, height - 1), last = width - 1;
    Expr groups = (width + 15) / 16 * 4 / words;  // the view's words (word_view::width_fits) a group each
    Expr w = words * group + v;                     // the word in the row
    Expr inside = clamp(width - 4 * w, 0, 4);     // its bytes inside the image (w >= 0)
    Expr keep = select(w < 0, cast<uint32_t>(0),
                       select(inside >= 4, UInt(32).max(), (cast<uint32_t>(1) << cast<uint32_t>(8 * inside)) - 1));
    Expr left = image(0, yc, c) & 0xFF;
    Expr right = (image(last / 4, yc, c) >> cast<uint32_t>(8 * (last % 4))) & 0xFF;
    Expr edge = select(w < 0, left, right) * cast<uint32_t>(0x01010101);
    return (image(words * clamp(group, 0, groups - 1) + v, yc, c) & keep) | (edge & ~keep);
}

inline LaneRunningSums::LaneRunningSums(const Inputs &in, LaneLayout layout) : Window(in) {
    using namespace Halide;
    if (in.view != word_view::InputView::words) throw std::invalid_argument("box: LaneRunningSums reads words");
    image = in.input;
    // The contract's largest radius (contract_ranges.h), so that a lane's
    // neighbours on each side hold every column its window reaches.
    layout.halo = (kBoxMaxRadius + 4 * layout.words - 1) / (4 * layout.words);
    layout.out_lanes = 32 - 2 * layout.halo;
    lanes = layout;
    const Expr &r = radius;
    const int run_pixels = 4 * layout.words;  // a lane's
    Expr group = layout.out_lanes * band - layout.halo + lane;
    define_strip_recurrence(
        *this, lane_columns, {v, half, lane, band}, UInt(32),
        [&](Expr yy) { return word_view::pixel_pair(lane_word(v, group, yy, c), half); },
        layout.rows);
    // Column `offset` (an Expr, a constant once r is and the loops are
    // unrolled) from the start of run g's pixels, in lane g's band.
    auto column = [&](Expr offset, Expr g) {
        Expr lane_of_g = g % layout.out_lanes + layout.halo, band_of_g = g / layout.out_lanes;
        Expr cc = offset % run_pixels;  // Halide's: 0 .. run_pixels - 1, the lane offset / run_pixels (floored) away
        return word_view::unpacked(lane_columns, cc,
                                   {lane_of_g + offset / run_pixels, band_of_g, y % layout.rows, y / layout.rows, c});
    };
    const Var &g = run;
    RDom window(-r, 2 * r + 1, "window"), across(1, run_pixels - 1, "lane_across");
    lane_window = window;
    lane_across = across;
    lane_sums(i, g, y, c) = undef<uint32_t>();
    lane_sums(0, g, y, c) = cast<uint32_t>(0);
    lane_sums(0, g, y, c) += column(window, g);
    lane_sums(across, g, y, c) = lane_sums(across - 1, g, y, c) + column(across + r, g) - column(across - r - 1, g);
    window_sum(x, y, c) = lane_sums(x % run_pixels, x / run_pixels, y, c);
    define_output(true);  // its schedules specialise on every radius
}

}  // namespace filterlab::box
