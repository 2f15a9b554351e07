// The CUDA pieces of streaming, behind a header free of CUDA types (pinned
// host memory is cuda_support.h's PinnedBuffer): device buffers, streams, events and the row copies between
// them. Every call is checked; failures throw Error (MachineError when the
// GPU cannot go on).
#pragma once

#include <cstddef>
#include <cstdint>

namespace filterlab::stream::gpu {

// Device memory with `guard` bytes before and after what data() points at
// (DeviceLayout's guards: a kernel reading a word past a row stays inside),
// all of it zeroed when allocated.
class DeviceBuffer {
public:
    DeviceBuffer(std::size_t bytes, std::size_t guard);
    ~DeviceBuffer();
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
    uint8_t *data() const { return data_; }

private:
    uint8_t *base_ = nullptr, *data_ = nullptr;
};

// A stream ordered with the legacy default stream (not with the other
// streams); its destructor waits for what was queued on it.
class Stream {
public:
    Stream();
    ~Stream();
    Stream(const Stream &) = delete;
    Stream &operator=(const Stream &) = delete;
    void *get() const { return stream_; }  // a cudaStream_t

private:
    void *stream_ = nullptr;
};

class Event {
public:
    Event();
    ~Event();
    Event(const Event &) = delete;
    Event &operator=(const Event &) = delete;
    void record(const Stream &stream);
    void wait() const;                              // the host waits for it
    double ms_since(const Event &earlier) const;  // both complete
private:
    void *event_ = nullptr;
};

// `rows` rows of `width` bytes between pitched buffers, on `stream`, without
// waiting: host to device, device to host, device to device.
void upload_rows(const Stream &stream, uint8_t *device, std::size_t device_pitch, const uint8_t *host,
                 std::size_t host_pitch, std::size_t width, std::size_t rows);
void download_rows(const Stream &stream, uint8_t *host, std::size_t host_pitch, const uint8_t *device,
                   std::size_t device_pitch, std::size_t width, std::size_t rows);
void copy_rows(const Stream &stream, uint8_t *to, std::size_t to_pitch, const uint8_t *from, std::size_t from_pitch,
               std::size_t width, std::size_t rows);

}  // namespace filterlab::stream::gpu
