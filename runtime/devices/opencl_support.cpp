#include "opencl_support.h"

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <cstring>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <tuple>
#include <mutex>

#include "error.h"

namespace filterlab::opencl {
namespace {

// `allocation`: the call allocates, so CL_OUT_OF_RESOURCES means memory
// there; elsewhere it is what NVIDIA reports for a kernel's bad access.
void check(cl_int status, const char *what, bool allocation = false) {
    if (status == CL_SUCCESS) return;
    if (status == CL_MEM_OBJECT_ALLOCATION_FAILURE || status == CL_OUT_OF_HOST_MEMORY ||
        (allocation && status == CL_OUT_OF_RESOURCES)) {
        throw MachineError(fmt::format("out of OpenCL device memory ({}: error {})", what, status));
    }
    throw Error(fmt::format("OpenCL error {} in {}", status, what));
}

// A string property of a platform or device (clGetPlatformInfo, clGetDeviceInfo).
template <typename Object, typename Query>
std::string info_string(cl_int(CL_API_CALL *get)(Object, Query, std::size_t, void *, std::size_t *), Object object,
                        Query what) {
    std::size_t size = 0;
    if (get(object, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
    std::string text(size, '\0');
    get(object, what, size, text.data(), nullptr);
    text.resize(std::strlen(text.c_str()));
    return text;
}

template <typename T>
T device_value(cl_device_id device, cl_device_info what) {
    T value{};
    clGetDeviceInfo(device, what, sizeof(T), &value, nullptr);
    return value;
}

struct State {
    DeviceInfo info;
    cl_device_id device = nullptr;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
};

// The device choice of the header's comment: a GPU first, then anything.
cl_device_id choose_device(const std::vector<cl_platform_id> &platforms, std::string &platform_name) {
    const char *wanted = std::getenv("FILTERLAB_OPENCL_PLATFORM");
    for (cl_device_type type : {cl_device_type(CL_DEVICE_TYPE_GPU), cl_device_type(CL_DEVICE_TYPE_ALL)}) {
        for (cl_platform_id platform : platforms) {
            const std::string name = info_string(clGetPlatformInfo, platform, cl_platform_info(CL_PLATFORM_NAME));
            if (wanted && *wanted && name.find(wanted) == std::string::npos) continue;
            cl_device_id device = nullptr;
            cl_uint count = 0;
            if (clGetDeviceIDs(platform, type, 1, &device, &count) == CL_SUCCESS && count > 0) {
                platform_name = name;
                return device;
            }
        }
    }
    return nullptr;
}

State open() {
    State s;
    cl_uint count = 0;
    if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) {
        s.info.why_not = "no OpenCL platform (no ICD in /etc/OpenCL/vendors or OCL_ICD_VENDORS)";
        return s;
    }
    std::vector<cl_platform_id> platforms(count);
    clGetPlatformIDs(count, platforms.data(), nullptr);
    s.device = choose_device(platforms, s.info.platform);
    if (!s.device) {
        const char *wanted = std::getenv("FILTERLAB_OPENCL_PLATFORM");
        s.info.why_not = wanted && *wanted ? fmt::format("no OpenCL device on a platform named like \"{}\"", wanted)
                                           : "no OpenCL device";
        return s;
    }
    cl_int status = CL_SUCCESS;
    s.context = clCreateContext(nullptr, 1, &s.device, nullptr, nullptr, &status);
    if (status == CL_SUCCESS) s.queue = clCreateCommandQueue(s.context, s.device, 0, &status);
    if (status != CL_SUCCESS) {
        s.info.why_not = fmt::format("cannot create an OpenCL context and queue (error {})", status);
        return s;
    }
    DeviceInfo &i = s.info;
    i.available = true;
    i.name = info_string(clGetDeviceInfo, s.device, cl_device_info(CL_DEVICE_NAME));
    i.version = info_string(clGetDeviceInfo, s.device, cl_device_info(CL_DEVICE_VERSION));
    i.driver = info_string(clGetDeviceInfo, s.device, cl_device_info(CL_DRIVER_VERSION));
    i.is_gpu = device_value<cl_device_type>(s.device, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_GPU;
    i.compute_units = static_cast<int>(device_value<cl_uint>(s.device, CL_DEVICE_MAX_COMPUTE_UNITS));
    i.memory_bytes = device_value<cl_ulong>(s.device, CL_DEVICE_GLOBAL_MEM_SIZE);
    i.cache_bytes = device_value<cl_ulong>(s.device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
    i.max_allocation_bytes = device_value<cl_ulong>(s.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    return s;
}

State &state() {
    static State s = open();
    return s;
}

cl_command_queue queue() {
    require_device();
    return state().queue;
}

// With FILTERLAB_OPENCL_BINARIES=<folder>, each program the driver builds is
// also written there as the driver made it (NVIDIA's: PTX text), named by its
// build options and kernels: to read what a hand-written OpenCL kernel became.
void save_binary(cl_program program, const std::string &options) {
    const char *folder = std::getenv("FILTERLAB_OPENCL_BINARIES");
    if (!folder || !*folder) return;
    std::size_t size = 0;
    if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr) != CL_SUCCESS || !size) return;
    std::string binary(size, '\0');
    unsigned char *data = reinterpret_cast<unsigned char *>(binary.data());
    if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(data), &data, nullptr) != CL_SUCCESS) return;
    std::string name;
    for (char c : info_string(clGetProgramInfo, program, cl_program_info(CL_PROGRAM_KERNEL_NAMES)) + options)
        name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    std::ofstream(std::string(folder) + "/" + name + ".bin", std::ios::binary) << binary;
}

// Programs built so far, by source and options; kept for the process (as
// Halide's runtime keeps its own).
cl_program program_for(const char *source, const std::string &options) {
    static std::mutex mutex;
    static std::map<std::pair<const char *, std::string>, cl_program> programs;
    std::lock_guard lock(mutex);
    auto it = programs.find({source, options});
    if (it != programs.end()) return it->second;
    require_device();
    State &s = state();
    cl_int status = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(s.context, 1, &source, nullptr, &status);
    check(status, "clCreateProgramWithSource");
    if (clBuildProgram(program, 1, &s.device, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
        std::size_t size = 0;
        clGetProgramBuildInfo(program, s.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
        std::string log(size, '\0');
        clGetProgramBuildInfo(program, s.device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
        clReleaseProgram(program);
        throw Error("OpenCL program build failed (" + options + "): " + log);
    }
    save_binary(program, options);
    return programs[{source, options}] = program;
}

}  // namespace

const DeviceInfo &device_info() { return state().info; }

void require_device() {
    if (!device_info().available) throw Error("no OpenCL device: " + device_info().why_not);
}

void finish(const char *what) { check(clFinish(queue()), what); }

namespace {

// A DeviceImage's memory: one buffer, and the image a sub-buffer of it (which
// is why the guard keeps the image at the device's sub-buffer alignment);
// pitched rows move in one rectangular read or write each way.
class ImageMemory final : public DeviceImageMemory {
public:
    ImageMemory(std::size_t allocation_bytes, std::size_t image_offset, std::size_t image_bytes) {
        require_device();
        cl_int status = CL_SUCCESS;
        allocation_ = clCreateBuffer(state().context, CL_MEM_READ_WRITE, allocation_bytes, nullptr, &status);
        check(status, "clCreateBuffer", true);
        const cl_buffer_region region{image_offset, image_bytes};
        cl_mem image = clCreateSubBuffer(allocation_, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
        if (status != CL_SUCCESS) {
            clReleaseMemObject(allocation_);
            check(status, "clCreateSubBuffer", true);
        }
        image_ = reinterpret_cast<uint8_t *>(image);
    }
    ~ImageMemory() override {
        clReleaseMemObject(reinterpret_cast<cl_mem>(image_));
        clReleaseMemObject(allocation_);
    }

    void write_rows(std::size_t offset, std::size_t pitch, const uint8_t *host, std::size_t width,
                    std::size_t rows) override {
        copy_rect(clEnqueueWriteBufferRect, "clEnqueueWriteBufferRect", offset, pitch, host, width, rows);
    }
    void read_rows(std::size_t offset, std::size_t pitch, uint8_t *host, std::size_t width,
                   std::size_t rows) const override {
        copy_rect(clEnqueueReadBufferRect, "clEnqueueReadBufferRect", offset, pitch, host, width, rows);
    }
    void read(uint8_t *host, std::size_t bytes) const override {
        check(clEnqueueReadBuffer(queue(), allocation_, CL_TRUE, 0, bytes, host, 0, nullptr, nullptr),
              "clEnqueueReadBuffer");
    }
    void fill(uint8_t value, std::size_t bytes) override {
        check(clEnqueueFillBuffer(queue(), allocation_, &value, 1, 0, bytes, 0, nullptr, nullptr),
              "clEnqueueFillBuffer");
        finish("after clEnqueueFillBuffer");
    }

private:
    // Either rectangular copy (their arguments are alike), blocking: rows of
    // `width` bytes, packed on the host, `pitch` apart in the buffer from `offset`.
    template <typename Copy, typename Host>
    void copy_rect(Copy copy, const char *what, std::size_t offset, std::size_t pitch, Host *host, std::size_t width,
                   std::size_t rows) const {
        const std::size_t device_origin[3] = {offset, 0, 0}, host_origin[3] = {0, 0, 0}, region[3] = {width, rows, 1};
        check(copy(queue(), allocation_, CL_TRUE, device_origin, host_origin, region, pitch, 0, width, 0, host, 0,
                   nullptr, nullptr),
              what);
    }

    cl_mem allocation_ = nullptr;
};

std::unique_ptr<DeviceImageMemory> make_image_memory(std::size_t allocation_bytes, std::size_t image_offset,
                                                     std::size_t image_bytes) {
    return std::make_unique<ImageMemory>(allocation_bytes, image_offset, image_bytes);
}

}  // namespace

DeviceImage::DeviceImage(int width, int height, int channels)
    : DeviceImageBase(width, height, channels, make_image_memory) {}

Kernel::Kernel(const char *source, const std::string &options, const char *name) : name_(name) {
    cl_int status = CL_SUCCESS;
    kernel_ = clCreateKernel(program_for(source, options), name, &status);
    check(status, name);
}

Kernel::~Kernel() { clReleaseKernel(static_cast<cl_kernel>(kernel_)); }

Kernel &kernel(const char *source, const std::string &options, const char *name) {
    thread_local std::map<std::tuple<const char *, std::string, std::string>, std::unique_ptr<Kernel>> kernels;
    auto &k = kernels[{source, options, name}];
    if (!k) k = std::make_unique<Kernel>(source, options, name);
    return *k;
}

Kernel &Kernel::arg(int index, void *memory) {
    cl_mem m = static_cast<cl_mem>(memory);
    check(clSetKernelArg(static_cast<cl_kernel>(kernel_), index, sizeof(cl_mem), &m), name_.c_str());
    return *this;
}

Kernel &Kernel::arg(int index, int value) {
    const cl_int v = value;
    check(clSetKernelArg(static_cast<cl_kernel>(kernel_), index, sizeof(cl_int), &v), name_.c_str());
    return *this;
}

Kernel &Kernel::arg(int index, std::int64_t value) {
    const cl_long v = value;
    check(clSetKernelArg(static_cast<cl_kernel>(kernel_), index, sizeof(cl_long), &v), name_.c_str());
    return *this;
}

Kernel &Kernel::local_bytes(int index, std::size_t bytes) {
    check(clSetKernelArg(static_cast<cl_kernel>(kernel_), index, bytes, nullptr), name_.c_str());
    return *this;
}

void Kernel::launch(std::size_t global_x, std::size_t global_y, std::size_t local_x, std::size_t local_y) {
    const std::size_t local[2] = {local_x, local_y};
    const std::size_t global[2] = {(global_x + local_x - 1) / local_x * local_x,
                                   (global_y + local_y - 1) / local_y * local_y};
    check(clEnqueueNDRangeKernel(queue(), static_cast<cl_kernel>(kernel_), 2, nullptr, global, local, 0, nullptr,
                                 nullptr),
          name_.c_str());
}

Scratch::Scratch(std::size_t bytes) {
    require_device();
    cl_int status = CL_SUCCESS;
    memory_ = clCreateBuffer(state().context, CL_MEM_READ_WRITE, std::max<std::size_t>(bytes, 1), nullptr, &status);
    check(status, "clCreateBuffer (scratch)", true);
}

Scratch::~Scratch() { clReleaseMemObject(static_cast<cl_mem>(memory_)); }

}  // namespace filterlab::opencl

// Halide's OpenCL runtime takes our context and queue instead of creating its
// own (the override its runtime documents): Halide's OpenCL variants and the
// hand-written kernels then run on one device, one queue, in order. As the
// runtime requires, acquire blocks until the previous acquirer released.
namespace {
std::mutex halide_context_mutex;
bool halide_has_context = false;  // Halide asked to create one (and so loaded its OpenCL entry points)
}  // namespace

extern "C" int halide_acquire_cl_context(void *, cl_context *ctx, cl_command_queue *q, bool create) {
    using namespace filterlab::opencl;
    halide_context_mutex.lock();  // released by the matching release, which Halide calls even after a failure
    // Without `create` (Halide's clean-up at exit, for one) only a context
    // Halide has had counts: it has no OpenCL entry points before.
    if (!create && !halide_has_context) {
        *ctx = nullptr;
        *q = nullptr;
        return 0;
    }
    if (!device_info().available) return -1;  // halide_error_code_generic_error (variants check availability first)
    halide_has_context = true;
    *ctx = state().context;
    *q = state().queue;
    return 0;
}

extern "C" int halide_release_cl_context(void *) {
    halide_context_mutex.unlock();
    return 0;
}
