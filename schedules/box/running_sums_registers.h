// A placement both CUDA schedules of box::RunningSums make: a run's window
// sums (the running sum along a chunk's outputs) kept in one thread's
// registers, unrolled along the run, at the loop of the stage that reads them.
#pragma once

#include "box.h"

namespace filterlab::box {

inline void window_sums_in_registers(RunningSums &p, const Halide::Func &reader, const Halide::Var &at) {
    p.window_sums.compute_at(reader, at)
        .store_in(Halide::MemoryType::Register)
        .bound_storage(p.k, kChunk)
        .bound_storage(p.chunk, 1)
        .bound_storage(p.y, 1)
        .bound_storage(p.c, 1)
        .unroll(p.k);
    p.window_sums.update(0).unscheduled();
    p.window_sums.update(1).unscheduled();
    p.window_sums.update(2).unroll(p.across);
}

}  // namespace filterlab::box
