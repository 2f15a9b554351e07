// One call of the concurrency test (test_concurrency.cpp): what it runs, how
// it is wrong if it is, its images as the caller has them (host or device),
// and its verdict once its stream is done.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "filterlab/filterlab.h"
#include "image.h"

namespace filterlab::concurrency {

struct Target {
    std::string filter, variant;
    std::map<std::string, double> params;  // of a good call: the contract's defaults where the variant takes them
};

// The target of `variant`, its good calls' parameters chosen from what it supports.
Target target_of(const VariantInfo &variant);

// How a bad call is wrong; each names a call-unique number that its message must repeat.
enum class Bad { none, unknown_parameter, unknown_variant, output_size };

struct Call {
    int id = 0;  // unique in the process
    Target target;
    int width = 0, height = 0, channels = 1, pad = 0;
    Layout layout = Layout::planar;
    bool on_device = false;
    int stream_index = 0;
    Bad bad = Bad::none;
    const Image *input = nullptr, *expected = nullptr;
};

// A caller's image: `layout`, rows padded by `pad` poisoned bytes; on the
// device, a copy of the same bytes.
struct CallerImage {
    std::vector<uint8_t> bytes;
    ImageRef ref;
    uint8_t *device = nullptr;
};

struct Issued {
    Call call;
    CallerImage in, out;
    void *stream = nullptr;
    Outcome outcome;
    std::string setup_error;  // a CUDA call of the test itself failed
};

// Runs the call through the API, on `stream` for device images (no wait).
Issued issue(const Call &call, void *stream);
// Waits for the call's stream, reads the output back and checks it: "" when
// the call did what it should, else what went wrong.
std::string finish(Issued &issued);
std::string describe(const Call &call);
// Why `target` cannot run here (no GPU, no OpenCL device), or "".
std::string device_missing(const Target &target);

}  // namespace filterlab::concurrency
