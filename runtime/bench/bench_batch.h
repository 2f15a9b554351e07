// `filterlab bench --batch N`: times whole batches of N images through each
// chosen variant, the way a program filtering N image files runs them.
//
// The batch is N distinct random images, interleaved as in files. Per batch:
// the conversions on the host (interleaved to planar for the inputs, planar to
// interleaved for the outputs; one thread, as when files are read and
// written); for CUDA variants, by CUDA events on the default stream, the
// uploads of the N planar images into pitched device images from pageable and
// from pinned host memory, the N launches, the downloads to pageable and to
// pinned memory, and the whole upload + launches + download end to end, from
// each kind of memory, one step after the other (variants take no stream, so
// transfers and kernels do not overlap); for CPU variants, the N calls. Each
// variant is first checked on the batch's first image against the reference
// (a wrong one is reported, not timed), and its batch outputs against that
// checked output. Results: batch.csv, batch.json and batch.txt in a new run
// directory.
#pragma once

#include <string>
#include <utility>

#include "bench.h"

namespace filterlab {

constexpr int kMaxBatchImages = 1000;

// "4096x2304" -> {4096, 2304}. Throws Error naming --batch-size for anything
// else, or a side beyond kMaxSide.
std::pair<int, int> parse_batch_size(const std::string &text);

// Runs the batch benchmark of o.batch_images images of o.batch_size at each of
// o.channels; returns the run directory it wrote. Throws Error, before
// anything is measured or written, for bad options and for a batch that does
// not fit the host's or the GPU's free memory.
std::string run_bench_batch(const BenchOptions &o);

}  // namespace filterlab
