// The OpenCL side of the harness (the third backend), behind a header free of
// OpenCL types: one context and one in-order queue on the chosen device,
// shared by the hand-written OpenCL kernels and Halide's OpenCL runtime (it is
// handed ours through halide_acquire_cl_context). Every OpenCL call is
// checked; failures throw Error.
//
// The device: the first GPU of the first platform that has one, else the
// first device of any platform (PoCL's CPU device in CI). FILTERLAB_OPENCL_PLATFORM
// (a substring of the platform's name, such as "NVIDIA" or "Portable")
// restricts the choice to that platform.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "device_image.h"

namespace filterlab::opencl {

struct DeviceInfo {
    bool available = false;
    std::string why_not;  // when not available
    std::string platform, name, version, driver;
    bool is_gpu = false;
    int compute_units = 0;
    std::size_t memory_bytes = 0, cache_bytes = 0, max_allocation_bytes = 0;
};

// Probed once; never throws.
const DeviceInfo &device_info();
// Throws Error("no OpenCL device: ...") when there is none.
void require_device();
void finish(const char *what);  // clFinish on the queue + error check

// An image in OpenCL device memory (device_image.h): one buffer. Its view's
// `data` is not an address but the cl_mem of the image itself (a sub-buffer
// of the allocation, starting after the front guard): what the OpenCL
// variants take.
class DeviceImage : public DeviceImageBase {
public:
    DeviceImage(int width, int height, int channels);
};

// The cl_mem a view of a DeviceImage carries.
inline void *memory_of(const PlanarView &view) { return view.data; }

// A kernel of a program built from OpenCL C source (with these build
// options) for the device; programs are built once per (source, options)
// and kept for the process. A build failure throws Error with the build log.
class Kernel {
public:
    Kernel(const char *source, const std::string &options, const char *name);
    ~Kernel();
    Kernel(const Kernel &) = delete;
    Kernel &operator=(const Kernel &) = delete;
    Kernel &arg(int index, void *memory);  // a cl_mem
    Kernel &arg(int index, int value);
    Kernel &arg(int index, std::int64_t value);  // a long
    Kernel &local_bytes(int index, std::size_t bytes);
    // Enqueues on the queue over `global` work-items in work-groups of
    // `local` (2-D), without waiting; `global` is rounded up to a multiple of `local`.
    void launch(std::size_t global_x, std::size_t global_y, std::size_t local_x, std::size_t local_y);

private:
    void *kernel_;  // cl_kernel, owned by the program cache
    std::string name_;
};

// The kernel `name` of (source, options), made once per thread and kept: an
// OpenCL kernel's arguments are state, so threads never share one.
Kernel &kernel(const char *source, const std::string &options, const char *name);

// A scratch buffer in device memory (released on destruction).
class Scratch {
public:
    explicit Scratch(std::size_t bytes);
    ~Scratch();
    Scratch(const Scratch &) = delete;
    Scratch &operator=(const Scratch &) = delete;
    void *memory() const { return memory_; }

private:
    void *memory_;
};

}  // namespace filterlab::opencl
