// The Gaussian's stages placed for a GPU thread or block (register blocking,
// the dot product's stages, a word view's vertical sums in shared memory),
// shared by the schedules of the pipelines that contain the blur (gaussian,
// gaussian_maxpool).
#pragma once

#include "gaussian.h"
#include "schedule_helpers.h"

namespace filterlab::schedules {

// A GPU thread that needs a width x height block of the blur (at its loop
// `thread` of `consumer`) computes its first passes once into registers: rows
// first, the row passes of the block's height + 4 input rows, each then used
// by the (up to 5) output rows that need it; columns first, the 16-bit
// vertical sums of its width + 4 columns, each used by up to 5 outputs of its
// row. With `input_too`, its (width + 4) x (height + 4) input bytes are
// first loaded into registers as well, so each is loaded once per thread.
template <typename Blur>
void gaussian_in_registers(Blur &blur, const Halide::Func &consumer, const Halide::Var &thread, int width, int height,
                           bool input_too) {
    if constexpr (Blur::kColumnsFirst) {
        in_registers(blur.column, blur.x, blur.y, consumer, thread, width + 4, height);
    } else {
        in_registers(blur.row, blur.x, blur.y, consumer, thread, width, height + 4);
    }
    if (input_too) in_registers(blur.clamped, blur.x, blur.y, consumer, thread, width + 4, height + 4);
}

// ColumnsFirstDot's stages for a GPU thread that needs a width x height
// block of the horizontal pass (at its loop `thread` of `consumer`): the
// block in registers, each output's four side taps one vectorised reduction
// (dp2a), the tap weights in registers, and the block's vertical sums in
// shared memory, computed at the consumer's innermost block loop `block` (in
// registers the reduction's misaligned reads of them go to local memory).
inline void gaussian_dot_in_registers(gaussian::ColumnsFirstDot &blur, const Halide::Func &consumer,
                                      const Halide::Var &thread, const Halide::Var &block, int width, int height) {
    using namespace Halide;
    in_registers(blur.row, blur.x, blur.y, consumer, thread, width, height);
    blur.row.update().atomic().vectorize(blur.side).unroll(blur.x).unroll(blur.y);
    blur.side_weight.compute_at(consumer, thread)
        .store_in(MemoryType::Register)
        .bound_extent(blur.tap, 4)
        .vectorize(blur.tap);
    Var cx{"cx"}, cy{"cy"};
    blur.column.compute_at(consumer, block)
        .store_in(MemoryType::GPUShared)
        .tile(blur.x, blur.y, cx, cy, 32, 4, TailStrategy::RoundUp)
        .gpu_threads(cx, cy);
}

// ColumnsFirst on a word view: the vertical sums of a block's words
// computed together into shared memory at the consumer's innermost block loop
// `block`, 4 aligned words (one 16-byte load of each input row) a thread, two
// pixels per 32-bit multiply-add, on the consumer's block of threads
// (`threads`, 32 x its warps) laid out `across` threads wide; each thread of
// the consumer then unpacks the sums under its pixels for the horizontal
// pass. (A launch takes each thread dimension's largest extent over the
// kernel's stages: staging threads shaped as the consumer's, 32 across,
// keep the block that size.)
inline void packed_columns_in_shared(gaussian::ColumnsFirst &blur, const Halide::Func &consumer,
                                     const Halide::Var &block, const BlockShape &threads, int across) {
    using namespace Halide;
    const int threads_x = across, threads_y = 32 * threads.warps / across;
    Var wo{"wo"}, wv{"wv"}, wt{"wt"}, yt{"yt"};
    blur.packed_column.compute_at(consumer, block)
        .store_in(MemoryType::GPUShared)
        .align_bounds(blur.wx, 4)
        .reorder(blur.odd, blur.wx, blur.y)
        .unroll(blur.odd)
        .split(blur.wx, wo, wv, 4, TailStrategy::RoundUp)
        .vectorize(wv)
        .tile(wo, blur.y, wt, yt, threads_x, threads_y, TailStrategy::RoundUp)
        .gpu_threads(wt, yt);
}

// How gaussian_thread_blocks lays out a consumer of the blur.
struct BlurBlocks {
    BlockShape threads;      // the consumer's thread blocks (see thread_blocks)
    int scale = 1;           // blurred pixels under one output, across and down (2 under 2x2 pooling)
    bool input_too = false;  // also load the input bytes under each thread into registers once
};

// thread_blocks of `consumer`, with the blur under each thread's outputs in
// registers as above. One call, so the block's shape is stated once.
template <typename Blur>
ThreadLoops gaussian_thread_blocks(Blur &blur, Halide::Func consumer, const Halide::Var &x, const Halide::Var &y,
                                   const Halide::Var &c, const BlurBlocks &b) {
    const ThreadLoops loops = thread_blocks(consumer, x, y, c, b.threads);
    gaussian_in_registers(blur, consumer, loops.xt, b.threads.vector * b.scale, b.threads.rows * b.scale,
                          b.input_too);
    return loops;
}

// gaussian_thread_blocks of the pipeline's output as `p` (a gaussian or
// gaussian_maxpool algorithm, whose blur is `blur`) writes it: on bytes, as
// `b` says; on a words output (WRITES("words")), threads of words, each the
// b.threads.vector / 4 words of the same outputs a bytes thread makes.
template <typename Algorithm, typename Blur>
ThreadLoops gaussian_output_blocks(Algorithm &p, Blur &blur, const BlurBlocks &b) {
    if (!p.writes_words) return gaussian_thread_blocks(blur, p.output, p.x, p.y, p.c, b);
    if (b.threads.vector % 4 != 0) throw std::invalid_argument("a words output's thread takes whole words (vector % 4)");
    BlockShape words = b.threads;
    words.vector /= 4;
    const ThreadLoops loops = thread_blocks(p.words, p.wx, p.y, p.c, words);
    gaussian_in_registers(blur, p.words, loops.xt, b.threads.vector * b.scale, b.threads.rows * b.scale, b.input_too);
    return loops;
}

}  // namespace filterlab::schedules
