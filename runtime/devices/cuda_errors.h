// The one check of CUDA runtime calls, for the harness and the handwritten
// kernels alike: a failure becomes an Error naming the call; a failed
// allocation, or an error that leaves the process's CUDA context unusable, a
// MachineError (the machine, not the call, cannot go on).
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "error.h"

namespace filterlab {

// Errors after which the process's CUDA context is unusable: the runtime's
// documentation says of each that "the process must be terminated and
// relaunched" (driver_types.h). Every later CUDA call of the process fails.
inline bool loses_gpu_state(cudaError_t status) {
    switch (status) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorLaunchTimeout:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorTensorMemoryLeak:
    case cudaErrorMpsClientTerminated:
        return true;
    default:
        return false;
    }
}

inline constexpr char kGpuStateLost[] =
    " (the process's GPU state is lost: every later CUDA call in this process fails; only a new process can use the "
    "GPU again)";

inline void cuda_check(cudaError_t status, const char *what) {
    if (status == cudaSuccess) return;
    cudaGetLastError();  // clear a non-sticky error
    if (status == cudaErrorMemoryAllocation) throw MachineError(std::string("out of GPU memory (") + what + ")");
    const std::string message = std::string("CUDA error in ") + what + ": " + cudaGetErrorString(status);
    if (loses_gpu_state(status)) throw MachineError(message + kGpuStateLost);
    throw Error(message);
}

}  // namespace filterlab
