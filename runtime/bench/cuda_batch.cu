#include "cuda_batch.h"

#include <cuda_runtime.h>

#include <string>

#include "cuda_errors.h"
#include "error.h"

namespace filterlab::cuda {
namespace {

// One cudaMemcpy2D covers every plane: the device planes are contiguous runs
// of pitched rows (plane_stride == row_stride * height), the host ones of
// dense rows. A view of another layout is a programming error.
void require_contiguous_planes(const PlanarView &device) {
    if (device.row_stride < device.width || device.plane_stride != device.row_stride * device.height) {
        throw Error("batch copy: the device view's planes are not contiguous pitched rows");
    }
}

}  // namespace


void copy_to_device(const uint8_t *host, const PlanarView &device, void *stream) {
    require_contiguous_planes(device);
    cuda_check(cudaMemcpy2DAsync(device.data, device.row_stride, host, device.width, device.width,
                            static_cast<std::size_t>(device.height) * device.channels, cudaMemcpyHostToDevice,
                                 static_cast<cudaStream_t>(stream)),
          "the host-to-device copy");
}

void copy_to_host(const PlanarView &device, uint8_t *host, void *stream) {
    require_contiguous_planes(device);
    cuda_check(cudaMemcpy2DAsync(host, device.width, device.data, device.row_stride, device.width,
                            static_cast<std::size_t>(device.height) * device.channels, cudaMemcpyDeviceToHost,
                                 static_cast<cudaStream_t>(stream)),
          "the device-to-host copy");
}

StreamSet::StreamSet(int count) {
    for (int i = 0; i < count; i++) {
        cudaStream_t s = nullptr;
        const cudaError_t status = cudaStreamCreate(&s);  // blocking: ordered with the legacy default stream
        if (status != cudaSuccess) {
            for (void *created : streams_) cudaStreamDestroy(static_cast<cudaStream_t>(created));
            cuda_check(status, "cudaStreamCreate");
        }
        streams_.push_back(s);
    }
}

StreamSet::~StreamSet() {
    for (void *s : streams_) cudaStreamDestroy(static_cast<cudaStream_t>(s));
    streams_.clear();
}

}  // namespace filterlab::cuda
