// The one check of CUDA runtime calls, for the harness and the handwritten
// kernels alike: a failure becomes an Error naming the call, and a failed
// allocation an MachineError.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "error.h"

namespace filterlab {

inline void cuda_check(cudaError_t status, const char *what) {
    if (status == cudaSuccess) return;
    cudaGetLastError();  // clear a non-sticky error
    if (status == cudaErrorMemoryAllocation) throw MachineError(std::string("out of GPU memory (") + what + ")");
    throw Error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(status));
}

}  // namespace filterlab
