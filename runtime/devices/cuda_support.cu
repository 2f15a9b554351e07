#include "cuda_support.h"

#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cuda_errors.h"
#include "error.h"

namespace filterlab::cuda {
namespace {

GpuInfo probe() {
    GpuInfo info;
    int count = 0;
    cudaRuntimeGetVersion(&info.runtime_version);  // the runtime linked in: known without a GPU
    cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
        cudaGetLastError();
        // The runtime says "insufficient driver" also when there is no driver at all.
        void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        info.why_not = driver ? cudaGetErrorString(status) : "no NVIDIA driver (libcuda.so.1 not found)";
        if (driver) dlclose(driver);
        return info;
    }
    if (count == 0) {
        info.why_not = "no CUDA device found";
        return info;
    }
    info.device_count = count;
    cudaDeviceProp prop{};
    status = cudaGetDeviceProperties(&prop, 0);
    if (status != cudaSuccess) {
        info.why_not = cudaGetErrorString(status);
        return info;
    }
    info.available = true;
    info.name = prop.name;
    info.sm_count = prop.multiProcessorCount;
    info.compute_major = prop.major;
    info.compute_minor = prop.minor;
    info.memory_bytes = prop.totalGlobalMem;
    info.l2_bytes = prop.l2CacheSize;
    cudaDriverGetVersion(&info.driver_version);
    int khz = 0;
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0) == cudaSuccess) info.sm_clock_mhz = khz / 1000;
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, 0) == cudaSuccess) info.memory_clock_mhz = khz / 1000;
    cudaGetLastError();
    return info;
}

}  // namespace

const GpuInfo &gpu_info() {
    static const GpuInfo info = probe();
    return info;
}

void require_gpu() {
    if (!gpu_info().available) throw Error("no GPU: " + gpu_info().why_not);
}

namespace {

// The primary context of the calling thread's current device, made current
// (cudaFree(nullptr) creates it); asked of the driver through the runtime,
// so the binary needs no link against libcuda.
void *make_primary_context() {
    if (const cudaError_t status = cudaFree(nullptr); status != cudaSuccess) {
        cudaGetLastError();
        throw MachineError(std::string("cannot create the CUDA context: ") + cudaGetErrorString(status));
    }
    void *entry = nullptr;
    cudaDriverEntryPointQueryResult found{};
    cuda_check(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &entry, 12000, cudaEnableDefault, &found),
               "cudaGetDriverEntryPointByVersion");
    if (found != cudaDriverEntryPointSuccess || !entry) throw Error("CUDA driver lacks cuCtxGetCurrent");
    CUcontext ctx = nullptr;
    if (reinterpret_cast<CUresult (*)(CUcontext *)>(entry)(&ctx) != CUDA_SUCCESS || !ctx) {
        throw Error("cannot get the CUDA primary context");
    }
    return static_cast<void *>(ctx);
}

// A stream-ordered pool of `device` that keeps what is freed (scratch_pool).
void *make_scratch_pool(int device) {
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location = {cudaMemLocationTypeDevice, device};
    cudaMemPool_t made = nullptr;
    cuda_check(cudaMemPoolCreate(&made, &props), "cudaMemPoolCreate");
    std::uint64_t keep_all = ~std::uint64_t{0};
    cuda_check(cudaMemPoolSetAttribute(made, cudaMemPoolAttrReleaseThreshold, &keep_all), "cudaMemPoolSetAttribute");
    return made;
}

int current_device() {
    int device = 0;
    cuda_check(cudaGetDevice(&device), "cudaGetDevice");
    return device;
}

// One value a device, made when the calling thread's current device first
// asks; later asks take no lock (the primary context is asked at every Halide call).
class PerDevice {
public:
    template <typename Make>
    void *get(Make make) {
        const int device = current_device();
        if (device >= kMaxDevices) throw Error("device " + std::to_string(device) + ": at most 64 devices are used");
        if (void *known = values_[device].load(std::memory_order_acquire)) return known;
        std::lock_guard lock(making_);
        if (!values_[device].load()) values_[device].store(make(device), std::memory_order_release);
        return values_[device].load();
    }

private:
    static constexpr int kMaxDevices = 64;
    std::atomic<void *> values_[kMaxDevices] = {};
    std::mutex making_;
};

}  // namespace

void *primary_context() {
    require_gpu();
    static PerDevice contexts;
    return contexts.get([](int) { return make_primary_context(); });
}

int device_count() { return gpu_info().available ? gpu_info().device_count : 0; }

DeviceScope::DeviceScope(int device) : previous_(current_device()) {
    if (device < 0 || device >= device_count()) {
        throw Error("no CUDA device " + std::to_string(device) + " (" + std::to_string(device_count()) + " visible)");
    }
    cuda_check(cudaSetDevice(device), "cudaSetDevice");
}
DeviceScope::~DeviceScope() { cudaSetDevice(previous_); }

void synchronize(const char *what) {
    cuda_check(cudaGetLastError(), what);
    cuda_check(cudaDeviceSynchronize(), what);
}

void *scratch_pool() {
    primary_context();
    static PerDevice pools;
    return pools.get(make_scratch_pool);
}

bool gpu_state_lost() {
    if (!gpu_info().available) return false;
    const cudaError_t status = cudaStreamQuery(static_cast<cudaStream_t>(current_stream()));
    cudaGetLastError();
    return loses_gpu_state(status);
}

const char *gpu_state_lost_note() { return kGpuStateLost; }

PinnedBuffer::PinnedBuffer(std::size_t bytes) : bytes_(bytes) {
    primary_context();
    void *p = nullptr;
    const cudaError_t status = cudaHostAlloc(&p, bytes, cudaHostAllocDefault);
    if (status != cudaSuccess) {
        cudaGetLastError();
        throw MachineError("cannot allocate " + std::to_string(bytes >> 20) +
                    " MiB of pinned host memory: " + cudaGetErrorString(status));
    }
    data_ = static_cast<uint8_t *>(p);
}

PinnedBuffer::~PinnedBuffer() { cudaFreeHost(data_); }

namespace {

// A DeviceImage's memory: one cudaMalloc, the image an address in it; pitched
// rows move in one cudaMemcpy2D each way.
class ImageMemory final : public DeviceImageMemory {
public:
    ImageMemory(std::size_t allocation_bytes, std::size_t image_offset) {
        require_gpu();
        cuda_check(cudaMalloc(&base_, allocation_bytes), "cudaMalloc");
        image_ = base_ + image_offset;
    }
    ~ImageMemory() override { cudaFree(base_); }

    void write_rows(std::size_t offset, std::size_t pitch, const uint8_t *host, std::size_t width,
                    std::size_t rows) override {
        cuda_check(cudaMemcpy2D(base_ + offset, pitch, host, width, width, rows, cudaMemcpyHostToDevice), "upload");
    }
    void read_rows(std::size_t offset, std::size_t pitch, uint8_t *host, std::size_t width,
                   std::size_t rows) const override {
        cuda_check(cudaMemcpy2D(host, width, base_ + offset, pitch, width, rows, cudaMemcpyDeviceToHost), "download");
    }
    void read(uint8_t *host, std::size_t bytes) const override {
        cuda_check(cudaMemcpy(host, base_, bytes, cudaMemcpyDeviceToHost), "download");
    }
    void fill(uint8_t value, std::size_t bytes) override { cuda_check(cudaMemset(base_, value, bytes), "cudaMemset"); }

private:
    uint8_t *base_ = nullptr;  // the allocation
};

std::unique_ptr<DeviceImageMemory> make_image_memory(std::size_t allocation_bytes, std::size_t image_offset,
                                                     std::size_t) {
    return std::make_unique<ImageMemory>(allocation_bytes, image_offset);
}

}  // namespace

DeviceImage::DeviceImage(int width, int height, int channels)
    : DeviceImageBase(width, height, channels, make_image_memory) {}

}  // namespace filterlab::cuda

namespace filterlab::cuda {
namespace {
thread_local void *stream_of_thread = nullptr;
}

void *current_stream() { return stream_of_thread; }

StreamScope::StreamScope(void *stream) : previous_(stream_of_thread) { stream_of_thread = stream; }
StreamScope::~StreamScope() { stream_of_thread = previous_; }

}  // namespace filterlab::cuda
