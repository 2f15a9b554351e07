#include "cuda_staging.h"

#include <cuda_runtime.h>

#include "cuda_errors.h"
#include "cuda_support.h"

namespace filterlab::stream::gpu {
namespace {

cudaStream_t as_stream(const Stream &stream) { return static_cast<cudaStream_t>(stream.get()); }

void copy_2d(const Stream &stream, void *to, std::size_t to_pitch, const void *from, std::size_t from_pitch,
             std::size_t width, std::size_t rows, cudaMemcpyKind kind, const char *what) {
    if (rows == 0 || width == 0) return;
    cuda_check(cudaMemcpy2DAsync(to, to_pitch, from, from_pitch, width, rows, kind, as_stream(stream)), what);
}

}  // namespace

DeviceBuffer::DeviceBuffer(std::size_t bytes, std::size_t guard) {
    cuda::primary_context();
    cuda_check(cudaMalloc(reinterpret_cast<void **>(&base_), bytes + 2 * guard), "cudaMalloc");
    // Zeroed once: a word view reads up to 15 bytes past a row's last pixel,
    // inside the row's padding, which no upload writes; those bytes feed no
    // pixel, but a read of them must not be of uninitialised memory
    // (compute-sanitizer initcheck reports every such read).
    cuda_check(cudaMemset(base_, 0, bytes + 2 * guard), "cudaMemset");
    data_ = base_ + guard;
}

DeviceBuffer::~DeviceBuffer() { cudaFree(base_); }

Stream::Stream() {
    cuda::primary_context();
    cudaStream_t stream = nullptr;
    // Blocking: ordered with the legacy default stream, on which NPP's peers
    // launch whatever stream is current; the slots' streams still overlap
    // each other.
    cuda_check(cudaStreamCreate(&stream), "cudaStreamCreate");
    stream_ = stream;
}

Stream::~Stream() {
    // Its work done first: the buffers it reads and writes are freed next.
    cudaStreamSynchronize(static_cast<cudaStream_t>(stream_));
    cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
}

Event::Event() {
    cudaEvent_t event = nullptr;
    cuda_check(cudaEventCreate(&event), "cudaEventCreate");
    event_ = event;
}

Event::~Event() { cudaEventDestroy(static_cast<cudaEvent_t>(event_)); }

void Event::record(const Stream &stream) {
    cuda_check(cudaEventRecord(static_cast<cudaEvent_t>(event_), as_stream(stream)), "cudaEventRecord");
}

void Event::wait() const { cuda_check(cudaEventSynchronize(static_cast<cudaEvent_t>(event_)), "cudaEventSynchronize"); }

double Event::ms_since(const Event &earlier) const {
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(earlier.event_), static_cast<cudaEvent_t>(event_)),
               "cudaEventElapsedTime");
    return ms;
}

void upload_rows(const Stream &stream, uint8_t *device, std::size_t device_pitch, const uint8_t *host,
                 std::size_t host_pitch, std::size_t width, std::size_t rows) {
    copy_2d(stream, device, device_pitch, host, host_pitch, width, rows, cudaMemcpyHostToDevice, "upload");
}

void download_rows(const Stream &stream, uint8_t *host, std::size_t host_pitch, const uint8_t *device,
                   std::size_t device_pitch, std::size_t width, std::size_t rows) {
    copy_2d(stream, host, host_pitch, device, device_pitch, width, rows, cudaMemcpyDeviceToHost, "download");
}

void copy_rows(const Stream &stream, uint8_t *to, std::size_t to_pitch, const uint8_t *from, std::size_t from_pitch,
               std::size_t width, std::size_t rows) {
    copy_2d(stream, to, to_pitch, from, from_pitch, width, rows, cudaMemcpyDeviceToDevice, "device copy");
}

}  // namespace filterlab::stream::gpu
