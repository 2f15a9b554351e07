// What the handwritten kernels share: the channel plane a kernel takes, the
// clamp border rule, the stream to launch on, and launching per plane with
// every launch checked (the
// CUDA calls themselves are checked by filterlab::cuda_check, cuda_errors.h).
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "cuda_errors.h"
#include "cuda_support.h"
#include "error.h"
#include "image.h"
#include "plane_view.h"

namespace filterlab::handwritten {

using filterlab::cuda_check;

// The stream every launch and stream-ordered call goes on: the caller's
// (cuda::StreamScope), else the legacy default stream.
inline cudaStream_t stream() { return static_cast<cudaStream_t>(cuda::current_stream()); }

// After a launch: configuration errors surface here, execution errors at the
// harness's next synchronisation.
inline void check_launch(const char *kernel) { cuda_check(cudaGetLastError(), kernel); }

// Launches `launch(plane)` for every channel plane of `in` -> `out`, then
// checks the launches (`kernel` names them in an error).
template <typename Launch>
void for_each_plane(const PlanarView &in, const PlanarView &out, const char *kernel, Launch &&launch) {
    for (int c = 0; c < in.channels; c++) launch(plane(in, out, c));
    check_launch(kernel);
}

}  // namespace filterlab::handwritten
