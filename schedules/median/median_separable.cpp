// Schedules of the median's Separable algorithm (generators/median.h): each
// evaluation makes a tile of outputs from what their windows share, sorted
// once. The algorithm is built at the point's tile; a schedule places its
// stages: tile_columns (a column's window sorted for each row of a tile, the
// rows the tile shares sorted once), by_tile (the same, indexed by tile),
// tile_medians (a tile's outputs).
#include "median.h"
#include "schedule_helpers.h"
#include "schedule_registry.h"

using namespace Halide;
using filterlab::median::Separable;
using filterlab::median::Tile;

// The tile is the algorithm's, from the point (tile_x, tile_y), and so are
// the networks' samples where the point has `bits` (32: no 16-bit masking
// left to ptxas, at the same registers).
template <>
Separable filterlab::schedules::construct<Separable>(const Separable::Inputs &inputs, const Point &point) {
    const Halide::Type samples = point.has("bits") ? Halide::UInt(point["bits"]) : inputs.sample_type;
    return Separable(inputs, Tile{point["tile_x"], point["tile_y"]}, samples);
}

namespace {

// The output split into the algorithm's tiles, (tx, ty) the tile loops and
// both tile loops inside unrolled, so each output picks a constant element of
// its tile's medians.
struct TileLoops {
    Var tx{"tx"}, ty{"ty"}, xi{"xi"}, yi{"yi"};
};

TileLoops split_into_tiles(Separable &p) {
    TileLoops l;
    p.output.tile(p.x, p.y, l.tx, l.ty, l.xi, l.yi, p.tile.width, p.tile.height, TailStrategy::GuardWithIf)
        .unroll(l.xi)
        .unroll(l.yi);
    return l;
}

// Computes `f` at `consumer`'s loop `at` in registers, one tile row of one
// channel (`v` left to the caller).
void in_registers(Func f, const Separable &p, const Func &consumer, const Var &at) {
    f.compute_at(consumer, at).store_in(MemoryType::Register).bound_storage(p.ty, 1).bound_storage(p.c, 1);
}

// How many tiles beyond a run of tiles the columns of their windows reach,
// on each side: ceil(r / tw).
int halo_tiles(const Separable &p) { return (p.size / 2 + p.tile.width - 1) / p.tile.width; }

// sep_tile's layout (below), shared with sep_tile_words: a tw x th tile a
// thread, its samples and sorted columns in registers.
void tile_threads(Separable &p, const filterlab::schedules::Point &point) {
    const TileLoops t = split_into_tiles(p);
    Var xo{"xo"}, yo{"yo"}, xt{"xt"}, yt{"yt"};
    p.output.split(t.tx, xo, xt, 32, TailStrategy::GuardWithIf)
        .split(t.ty, yo, yt, point["warps"], TailStrategy::GuardWithIf)
        .reorder(t.xi, t.yi, xt, yt, p.c, xo, yo)
        .gpu_blocks(xo, yo, p.c)
        .gpu_threads(xt, yt);
    in_registers(p.tile_medians, p, p.output, xt);
    p.tile_medians.bound_storage(p.tx, 1);
    in_registers(p.tile_columns, p, p.output, xt);
    p.tile_columns.bound_storage(p.x, p.tile.width + p.size - 1).unroll(p.x);
}


}  // namespace

// Each thread makes a tw x th tile: it loads its (tw+k-1) x (th+k-1) samples once
// (widened to 16 or 32 bits), sorts each column's shared rows once for the th rows
// and each shared row rank once for the tw columns, all in registers. Why it should
// be fast: per output, (k-th+1)/th of a column sort and (k-tw+1)/tw of a row sort
// instead of one each, and no shared memory or barrier. Its space: the tile (more
// sharing, more registers), warps a block (stacked in y), the samples' width.
FILTERLAB_SCHEDULE(median, Separable, gpu, sep_tile, AXES("tile_x=1,[2],4 tile_y=1,[2],4 warps=2,[4] bits=[16],32")) {
    tile_threads(p, point);
}

// A thread makes a strip of `tiles` tiles side by side (as hw_row_pairs' thread makes
// runs of outputs), the sorted columns of the whole strip and its halo computed once
// into registers. Why it should be fast: per tile, tw + (k-1)/tiles column sorts
// where sep_tile makes tw + k - 1. (Computed per tile instead, for Halide's sliding
// window to keep only a tile's columns live, the columns go to local memory.) Its
// space: the tile, tiles a strip (more sharing; all its columns live at once), warps.
FILTERLAB_SCHEDULE(median, Separable, gpu, sep_strip, AXES("tile_x=1,[2] tile_y=[1],2 tiles=[4],8 warps=[2],4"),
                   FRONTIER("fastest Halide CUDA median at 5x5 in the one run")) {
    const TileLoops t = split_into_tiles(p);
    Var xo{"xo"}, yo{"yo"}, xt{"xt"}, yt{"yt"}, xs{"xs"}, xw{"xw"};
    p.output.split(t.tx, xw, xs, point["tiles"], TailStrategy::GuardWithIf)
        .split(xw, xo, xt, 32, TailStrategy::GuardWithIf)
        .split(t.ty, yo, yt, point["warps"], TailStrategy::GuardWithIf)
        .reorder(t.xi, t.yi, xs, xt, yt, p.c, xo, yo)
        .unroll(xs)
        .gpu_blocks(xo, yo, p.c)
        .gpu_threads(xt, yt);
    in_registers(p.tile_medians, p, p.output, xs);
    p.tile_medians.bound_storage(p.tx, 1);
    in_registers(p.tile_columns, p, p.output, xt);
    p.tile_columns.bound_storage(p.x, int(point["tiles"]) * p.tile.width + p.size - 1).unroll(p.x);
}

// sep_tile on a word view: the block's input words (its tiles and their halo) staged
// in shared memory, 4 aligned words (16 bytes) a thread and row (clamped by whole
// 16-byte groups, so each group stays one load); each thread takes its samples out
// of them. Why it might be fast: a quarter of sep_tile's global load instructions
// (a bounded gain: sep_tile's time is its networks'). Its space: as sep_tile's.
FILTERLAB_SCHEDULE(median, Separable, gpu, sep_tile_words, AXES("tile_x=2,[4] tile_y=1,[2],4 warps=[2] bits=[16],32"),
                   READS("words")) {
    tile_threads(p, point);
    Var wo{"wo"}, wv{"wv"}, wa{"wa"}, wt{"wt"};
    p.input_words.compute_at(p.output, p.c)  // the innermost block loop
        .store_in(MemoryType::GPUShared)
        .align_bounds(p.wx, 4)
        .split(p.wx, wo, wv, 4, TailStrategy::RoundUp)
        .vectorize(wv)
        // 32 threads across whatever Halide's bounds give (they grow with the
        // width: mapped whole, a wide image's block is too large to launch).
        .split(wo, wa, wt, 32, TailStrategy::GuardWithIf)
        .gpu_threads(wt, p.y);
}

// Adams' GPU layout: each lane of a warp makes one tw x th tile, a warp a row of
// 32 - 2 ceil(r/tw) tiles; each lane sorts its own tile's columns (the edge lanes
// only for their neighbours) and reads its neighbours' by warp shuffles (gpu_lanes).
// Why it should be fast: every column loaded and sorted once a warp, kept in
// registers, no shared memory. Its space: the tile, warps a block (stacked in y).
FILTERLAB_SCHEDULE(median, Separable, gpu, sep_lanes, AXES("tile_x=1,[2] tile_y=1,[2],4 warps=[1],2"),
                   CUDA_ONLY("warp_shuffles")) {
    const TileLoops t = split_into_tiles(p);
    const int lanes = 32;
    Var xo{"xo"}, yo{"yo"}, xl{"xl"}, yw{"yw"};
    p.output.split(t.tx, xo, xl, lanes - 2 * halo_tiles(p), TailStrategy::GuardWithIf)
        .split(t.ty, yo, yw, point["warps"], TailStrategy::GuardWithIf)
        .reorder(t.xi, t.yi, xl, yw, p.c, xo, yo)
        .gpu_blocks(xo, yo, p.c)
        .gpu_threads(yw)
        .gpu_lanes(xl);
    in_registers(p.tile_medians, p, p.output, xl);
    p.tile_medians.bound_storage(p.tx, 1);
    Var bo{"bo"}, bl{"bl"};
    in_registers(p.by_tile, p, p.output, yw);
    // A warp's tiles and their halo: one tile per lane.
    p.by_tile.bound_storage(p.v, p.tile.width)
        .bound_extent(p.tx, lanes)
        .split(p.tx, bo, bl, lanes, TailStrategy::GuardWithIf)
        .reorder(p.v, bl, bo)
        .unroll(p.v)
        .unroll(bo)
        .gpu_lanes(bl);
}

// Strips of rows over the cores; per tile row the columns' sorted windows made once,
// vectorised across x, then the tiles' medians vectorised across tiles (one lane a
// tile). Why it should be fast: Adams' CPU scheme, the networks' cost shared by the
// tile and every min/max a whole vector of tiles. Its space: the tile, rows a strip.
FILTERLAB_SCHEDULE(median, Separable, cpu, sep_strips, AXES("tile_x=[1],2 tile_y=1,[2],4 rows=8,[16],32"),
                   FRONTIER("Separable's CPU schedule (Adams' scheme)")) {
    const TileLoops t = split_into_tiles(p);
    const int lanes = target.natural_vector_size(p.sample_type);
    Var strip{"strip"}, tyi{"tyi"}, xo{"xo"}, xv{"xv"};
    p.output.split(t.ty, strip, tyi, std::max(1, point["rows"] / p.tile.height), TailStrategy::GuardWithIf)
        .split(t.tx, xo, xv, lanes, TailStrategy::GuardWithIf)
        .reorder(t.xi, t.yi, xv, xo, tyi, p.c, strip)
        .vectorize(xv)
        .parallel(strip);
    p.tile_medians.compute_at(p.output, xo).vectorize(p.tx);
    p.tile_columns.compute_at(p.output, tyi).vectorize(p.x, lanes, TailStrategy::RoundUp);
}

// Frozen points of the separable schedules, one per window size: 3x3 in 4x4
// tiles (they share most), 5x5 in sep_lanes' 2x1 tiles, 7x7 in 4x1 tiles of
// 32-bit samples (they fit 64 registers where the default 2x2 spills); why
// each, with its numbers: the ledger.
FILTERLAB_FROZEN(median, gpu, sep_tile_4x4, sep_tile, "tile_x=4+tile_y=4+warps=2+bits=16");
FILTERLAB_FROZEN(median, gpu, sep_lanes_2x1, sep_lanes, "tile_x=2+tile_y=1+warps=2");
FILTERLAB_FROZEN(median, gpu, sep_tile_4x1_u32, sep_tile, "tile_x=4+tile_y=1+warps=2+bits=32",
                   FRONTIER("the 7x7 tile at Halide's own register cap, 64"));

// The register cap swept per library (the launch's axis): the 7x7 tile's spills
// gone at 168, the strip's columns kept in registers at 128 (the ledger).
FILTERLAB_FROZEN(median, gpu, sep_tile_4x1_u32_r168, sep_tile, "tile_x=4+tile_y=1+warps=2+bits=32+max_registers=168",
                 FRONTIER("fastest Halide CUDA median at 7x7 in the cap sweep"));
FILTERLAB_FROZEN(median, gpu, sep_strip_r128, sep_strip, "max_registers=128",
                 FRONTIER("fastest Halide CUDA median at 5x5 in the cap sweep"));
