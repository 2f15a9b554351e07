// The host<->device copies of `bench --batch`, behind a header free of CUDA
// types: pinned host buffers, and copies between dense planar host images and
// the pitched rows of device images. Every CUDA call is checked; failures
// throw Error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuda_support.h"  // PinnedBuffer
#include "image.h"

namespace filterlab::cuda {

// Queue on the default stream a copy of a dense planar host image (rows of
// `device.width` bytes, planes one after the other) into a device view whose
// planes follow each other at its row pitch (a DeviceImage's view), and back.
// From pageable memory the driver stages the copy and returns late; from
// pinned memory it returns at once: time them with an EventTimer.
// `stream` (a cudaStream_t): nullptr, the legacy default stream.
void copy_to_device(const uint8_t *host, const PlanarView &device, void *stream = nullptr);
void copy_to_host(const PlanarView &device, uint8_t *host, void *stream = nullptr);

// CUDA streams that synchronise with the legacy default stream (an event
// recorded there after them waits for them all), destroyed with the set.
class StreamSet {
public:
    explicit StreamSet(int count);
    ~StreamSet();
    StreamSet(const StreamSet &) = delete;
    StreamSet &operator=(const StreamSet &) = delete;
    int size() const { return static_cast<int>(streams_.size()); }
    void *operator[](int i) const { return streams_[i]; }

private:
    std::vector<void *> streams_;
};

}  // namespace filterlab::cuda
