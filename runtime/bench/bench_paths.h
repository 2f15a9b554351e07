// The timing paths of `filterlab bench` for one image: the CUDA GPU (events
// around queued launches), OpenCL (the host clock between clFinish calls) and
// the CPU (a steady clock around each call), each over a rotation of input and
// output buffers that exceeds the device's cache (bench.h says how a sample is
// taken). The Python peers follow the same protocol (timing_protocol_json).
#pragma once

#include <nlohmann/json.hpp>
#include <utility>

#include "bench_common.h"
#include "image.h"
#include "registry.h"

namespace filterlab {

// One variant timed on `input` (its output `out_size`); `buffers` is set to
// the rotation's pair count.
Stats time_gpu(const BenchOptions &o, const Variant &v, const Image &input, std::pair<int, int> out_size,
               const ParamValues &params, int &buffers);
Stats time_opencl(const BenchOptions &o, const Variant &v, const Image &input, std::pair<int, int> out_size,
                  const ParamValues &params, int &buffers);
Stats time_cpu(const BenchOptions &o, const Variant &v, const Image &input, std::pair<int, int> out_size,
               const ParamValues &params, int &buffers);

// The protocol's numbers for a timer outside this process (scripts/peers_python.py,
// through `filterlab import-peers --protocol`): the minimum samples and seconds,
// the runs per GPU sample, and per backend the cache a rotation must exceed
// twice and the most buffers it takes.
nlohmann::json timing_protocol_json(const BenchOptions &defaults);

}  // namespace filterlab
