// One image filtered in bands of rows (band_plan.h), streamed: a reader
// thread reads band b+2 from the file while the compute step filters band b+1
// (for a CUDA variant: its upload, kernels and download queued on its own
// stream, overlapping the other bands') and a writer thread writes band b.
// Host memory is the bands in flight (`slots` of them a GPU; at the start,
// while a CUDA worker is made, up to `slots` more read ahead), not the image;
// so is device memory. The output is byte-identical to filtering the whole image.
#pragma once

#include <cstddef>

#include "band_plan.h"
#include "registry.h"
#include "row_files.h"

namespace filterlab::stream {

struct StreamOptions {
    PlanLimits limits;
    int slots = 3;       // bands in flight (a CUDA variant's: on each GPU)
    int io_threads = 8;  // threads that read (and that write) one band's rows
    int gpus = 1;        // a CUDA variant's bands spread over devices 0..gpus-1 (0: every visible one)
};

// Seconds, except the compute side's milliseconds: read and write are the
// reading and writing threads' busy time, summed; upload, kernel and download
// the device's time for them summed over bands (CUDA events; a CPU variant's
// filter time is `kernel`), device_span the device's first to last.
struct StreamTimes {
    double wall = 0, read = 0, write = 0;
    double setup = 0;  // making the worker (contexts, staging, device memory), beside the first reads
    double upload_ms = 0, kernel_ms = 0, download_ms = 0, device_span_ms = 0;
    int bands = 0, tiles = 0, gpus = 1;
    std::size_t staging_bytes = 0;  // host memory held for the bands in flight
    double peak_rss_mib = 0;        // the process's peak resident memory at the end
};

// Throws Error (on any stage's failure: the first, after every thread has
// stopped). The sink may then hold some rows: its owner discards it.
StreamTimes run_streamed(const Variant &variant, const RowSource &source, const RowSink &sink,
                         const ParamValues &params, const StreamOptions &options = {});

}  // namespace filterlab::stream
