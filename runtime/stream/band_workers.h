// The compute step of a streamed run (streamed_run.h): a band's planar input
// rows in, its kept output rows out, for a CPU variant on host memory or a
// CUDA variant through pinned staging, device buffers and a stream per slot.
// Each slot is a band in flight; the step for one slot may run while another
// slot is being read or written by other threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "band_plan.h"
#include "registry.h"

namespace filterlab::stream {

// Planar host rows: plane c, row y at data + c * plane_stride + y * row_stride.
struct HostRows {
    uint8_t *data = nullptr;
    std::ptrdiff_t row_stride = 0, plane_stride = 0;
};

// Milliseconds of the compute side, summed over bands (CUDA: events; CPU:
// the host clock, all in `kernel`); `device_span` from the first upload's
// start to the last download's end (over several GPUs: the longest device's).
struct ComputeTimes {
    double upload = 0, kernel = 0, download = 0, device_span = 0;
};

class BandWorker {
public:
    virtual ~BandWorker() = default;
    virtual int slots() const = 0;   // bands in flight
    virtual int devices() const { return 1; }  // the GPUs they go to
    // Where the reader puts a band's input: planar, each plane width x
    // band.in_count() packed.
    virtual uint8_t *input(int slot) = 0;
    // Starts (CUDA: queues) the band's filter. Called from one thread.
    virtual void compute(int slot, const Span &band) = 0;
    // The band's kept output rows, out_width wide; waits until they are in
    // host memory. Called from one thread (the writer's).
    virtual HostRows output(int slot, const Span &band) = 0;
    virtual ComputeTimes times() const = 0;
    virtual std::size_t host_bytes() const = 0;  // the staging memory it holds
};

// For a CPU or CUDA variant, with `slots` bands in flight (a CUDA variant:
// on each of `gpus` devices, 0: every visible one, band b on device b mod
// gpus; a CPU variant ignores 0); throws Error for another backend, for more
// than one GPU but a CPU variant or too few visible, or when memory for the
// slots cannot be had.
std::unique_ptr<BandWorker> make_band_worker(const Variant &variant, const ParamValues &params,
                                             const StreamPlan &plan, int slots, int gpus = 1);

}  // namespace filterlab::stream
