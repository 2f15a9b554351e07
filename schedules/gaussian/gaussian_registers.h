// The Gaussian's register blocking, shared by the schedules of the pipelines
// that contain the blur (gaussian, gaussian_maxpool).
#pragma once

#include "gaussian.h"
#include "schedule_helpers.h"

namespace filterlab::schedules {

// A GPU thread that needs a width x height block of the blur (at its loop
// `thread` of `consumer`) computes the row passes of the block's height + 4
// input rows once into registers, each then used by the 5 output rows that
// need it; with `input_too`, its (width + 4) x (height + 4) input bytes are
// first loaded into registers as well, so each is loaded once per thread.
inline void gaussian_in_registers(gaussian_pipeline::Pipeline &blur, const Halide::Func &consumer,
                                  const Halide::Var &thread, int width, int height, bool input_too) {
    in_registers(blur.row, blur.x, blur.y, consumer, thread, width, height + 4);
    if (input_too) in_registers(blur.clamped, blur.x, blur.y, consumer, thread, width + 4, height + 4);
}

}  // namespace filterlab::schedules
