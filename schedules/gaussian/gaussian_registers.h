// The Gaussian's register blocking, shared by the schedules of the pipelines
// that contain the blur (gaussian, gaussian_maxpool).
#pragma once

#include "gaussian.h"
#include "schedule_helpers.h"

namespace filterlab::schedules {

// A GPU thread that needs a width x height block of the blur (at its loop
// `thread` of `consumer`) computes the row passes of the block's height + 4
// input rows once into registers, each then used by the (up to 5) output
// rows that need it; with `input_too`, its (width + 4) x (height + 4) input bytes are
// first loaded into registers as well, so each is loaded once per thread.
inline void gaussian_in_registers(gaussian_pipeline::Pipeline &blur, const Halide::Func &consumer,
                                  const Halide::Var &thread, int width, int height, bool input_too) {
    in_registers(blur.row, blur.x, blur.y, consumer, thread, width, height + 4);
    if (input_too) in_registers(blur.clamped, blur.x, blur.y, consumer, thread, width + 4, height + 4);
}

// thread_blocks of `consumer` (vector x rows outputs per thread), with the
// blur under each thread's outputs in registers as above; `scale` is how many
// blurred pixels lie under one output across and down (1 for the blur itself,
// 2 under 2x2 pooling). One call, so the block's shape is stated once.
inline void gaussian_thread_blocks(gaussian_pipeline::Pipeline &blur, Halide::Func consumer,
                                   const Halide::Var &x, const Halide::Var &y, const Halide::Var &c, int vector,
                                   int rows, int warps, int scale, bool input_too) {
    thread_blocks(consumer, x, y, c, vector, rows, warps);
    gaussian_in_registers(blur, consumer, Halide::Var("xt"), vector * scale, rows * scale, input_too);
}

}  // namespace filterlab::schedules
