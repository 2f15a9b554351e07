// What the handwritten CPU baselines (OpenMP, Pthreads) share beyond the
// Plane and clamp rule of plane_view.h: the thread count,
// which follows Halide's (HL_NUM_THREADS; `bench --threads` sets it) so that
// every CPU variant of a run uses the same number of threads.
#pragma once

#include "machine.h"
#include "plane_view.h"

namespace filterlab::handwritten::cpu {

inline int threads() { return halide_thread_count() > 0 ? halide_thread_count() : 1; }

}  // namespace filterlab::handwritten::cpu
