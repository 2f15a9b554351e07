// A Halide CUDA schedule's launch, applied per library through the hooks
// Halide's runtime documents. Halide 21's CUDA runtime loads each library's
// PTX with one JIT option, a register cap of 64 (HL_CUDA_JIT_MAX_REGISTERS,
// read at every module load, changes it for the whole process), and launches
// every kernel as its schedule sized it. Its driver calls are looked up
// through halide_get_library_symbol, which an application may replace
// (halide_set_custom_get_library_symbol): the replacement here wraps
//   - cuModuleLoadDataEx: the cap of the library being called on this thread
//     (its schedule point's `max_registers` axis) replaces Halide's;
//   - cuLaunchKernel: a kernel asking for more than 48 KB of dynamic shared
//     memory is opted in to it (cuFuncSetAttribute), which sm_70 and later
//     allow up to the device's limit (227 KB on the H100); on request it
//     also records the registers the launched kernels were given.
// Nothing is set in the environment; a variant without `max_registers` runs
// as Halide would (64, or the caller's HL_CUDA_JIT_MAX_REGISTERS).
#pragma once

#include "launch_axis.h"
#include "registry.h"

namespace filterlab::halide_cuda {

// The point's axis that names a CUDA library's register cap.
inline constexpr const char *kMaxRegistersAxis = launch_axis::kName;
// The cap Halide 21's CUDA runtime loads a module with when nobody names one
// (runtime/cuda.cpp, compile_kernel): Halide's own choice on the launch's axis.
inline constexpr int kHalideMaxRegisters = launch_axis::kHalideOwn;

struct Launch {
    int max_registers = 0;  // 0: Halide's own
    static Launch from_point(const SchedulePoint &point);
};

// Installs the wrappers, once a process; before Halide first loads libcuda
// (the first Halide CUDA call), else they never see its calls.
void install_hooks();

// For its length, the modules Halide loads on this thread take `launch`'s cap.
// A library's module is loaded once a context, at its first call, always
// under its own variant's scope: each library keeps its own cap.
class ScopedLaunch {
public:
    explicit ScopedLaunch(const Launch &launch);
    ~ScopedLaunch();
    ScopedLaunch(const ScopedLaunch &) = delete;
    ScopedLaunch &operator=(const ScopedLaunch &) = delete;

private:
    const Launch *previous_;
};

// The cap of the scope this thread is in (0: none).
int current_max_registers();

// The most registers a kernel launched on this thread had, since the last
// reset (0: none launched, or the hooks were installed too late to see it).
// Counted only after a reset on this thread, so that no other launch pays a
// driver query.
int registers_launched();
void reset_registers_launched();

// The variant as given, or, for a CUDA Halide variant whose point names
// max_registers, one that runs under its Launch.
Variant with_launch(Variant variant);

}  // namespace filterlab::halide_cuda
