// NVIDIA's NPP as a peer (kind `peer`): loaded with dlopen at run time, so
// the build needs no NPP and a machine without it says so. CUDA 13's NPP has
// only the `_Ctx` entry points; the few types used are declared here as NPP
// 12/13 defines them (nppdefs.h).
#include <dlfcn.h>

#include <cuda_runtime.h>

#include <string>

#include "cuda_support.h"
#include "error.h"
#include "registry.h"

namespace filterlab {
namespace {

struct NppiSize {
    int width, height;
};
struct NppiPoint {
    int x, y;
};
struct NppStreamContext {
    cudaStream_t hStream;
    int nCudaDeviceId, nMultiProcessorCount, nMaxThreadsPerMultiProcessor, nMaxThreadsPerBlock;
    size_t nSharedMemPerBlock;
    int nCudaDevAttrComputeCapabilityMajor, nCudaDevAttrComputeCapabilityMinor;
    unsigned int nStreamFlags;
    int nReserved0;
};
constexpr int kBorderReplicate = 2;  // NPP_BORDER_REPLICATE: the contract's clamp border

constexpr int kMask5x5 = 201;       // NPP_MASK_SIZE_5_X_5

using FilterBoxBorder = int (*)(const uint8_t *, int, NppiSize, NppiPoint, uint8_t *, int, NppiSize, NppiSize,
                                NppiPoint, int, NppStreamContext);
using FilterMedianBorder = int (*)(const uint8_t *, int, NppiSize, NppiPoint, uint8_t *, int, NppiSize, NppiSize,
                                   NppiPoint, uint8_t *, int, NppStreamContext);
using MedianBufferSize = int (*)(NppiSize, NppiSize, uint32_t *, int, NppStreamContext);
using FilterGaussBorder = int (*)(const uint8_t *, int, NppiSize, NppiPoint, uint8_t *, int, NppiSize, int, int,
                                  NppStreamContext);

struct Npp {
    std::string error;
    FilterBoxBorder box = nullptr;
    FilterMedianBorder median = nullptr;
    MedianBufferSize median_buffer_size = nullptr;
    FilterGaussBorder gauss = nullptr;
    NppStreamContext context{};
};

template <typename F>
bool find(void *library, const char *name, F &entry, std::string &error) {
    entry = reinterpret_cast<F>(dlsym(library, name));
    if (!entry) error = std::string("NPP lacks ") + name;
    return entry != nullptr;
}

const Npp &npp() {
    static const Npp loaded = [] {
        Npp n;
        if (!cuda::gpu_info().available) {
            n.error = "no GPU";
            return n;
        }
        void *core = nullptr, *filtering = nullptr;
        for (std::string dir : {"", "/usr/local/cuda/lib64/"}) {
            if (!core) core = dlopen((dir + "libnppc.so.13").c_str(), RTLD_NOW | RTLD_GLOBAL);
            if (!filtering) filtering = dlopen((dir + "libnppif.so.13").c_str(), RTLD_NOW | RTLD_GLOBAL);
        }
        if (!core || !filtering) {
            n.error = std::string("NPP not found (libnppc.so.13, libnppif.so.13): ") + dlerror();
            return n;
        }
        if (!find(filtering, "nppiFilterBoxBorder_8u_C1R_Ctx", n.box, n.error) ||
            !find(filtering, "nppiFilterMedianBorder_8u_C1R_Ctx", n.median, n.error) ||
            !find(filtering, "nppiFilterMedianBorderGetBufferSize_8u_C1R_Ctx", n.median_buffer_size, n.error) ||
            !find(filtering, "nppiFilterGaussBorder_8u_C1R_Ctx", n.gauss, n.error)) {
            return n;
        }
        cudaDeviceProp prop{};
        cudaGetDeviceProperties(&prop, 0);
        n.context = {nullptr,
                     0,
                     prop.multiProcessorCount,
                     prop.maxThreadsPerMultiProcessor,
                     prop.maxThreadsPerBlock,
                     prop.sharedMemPerBlock,
                     prop.major,
                     prop.minor,
                     0,
                     0};
        return n;
    }();
    return loaded;
}

void check_npp(int status, const char *what) {
    if (status != 0) throw Error(std::string(what) + " failed with NPP status " + std::to_string(status));
}

void run_box(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    const int r = static_cast<int>(params.at("radius"));
    const NppiSize size{in.width, in.height}, mask{2 * r + 1, 2 * r + 1};
    for (int c = 0; c < in.channels; c++) {
        const int status = npp().box(in.data + c * in.plane_stride, static_cast<int>(in.row_stride), size, {0, 0},
                                     out.data + c * out.plane_stride, static_cast<int>(out.row_stride), size, mask,
                                     {r, r}, kBorderReplicate, npp().context);
        check_npp(status, "nppiFilterBoxBorder_8u_C1R_Ctx");
    }
}

// NPP's median needs scratch memory: the call's own, from FilterLab's
// stream-ordered pool (cuda::scratch_pool), which keeps it for the next call:
// no allocation is paid inside a timed call after the first, and calls on
// other threads never share it.
class MedianScratch {
public:
    explicit MedianScratch(std::size_t bytes) {
        if (cudaMallocFromPoolAsync(reinterpret_cast<void **>(&data_), bytes,
                                    static_cast<cudaMemPool_t>(cuda::scratch_pool()), npp().context.hStream) != cudaSuccess) {
            cudaGetLastError();
            throw MachineError("out of GPU memory (NPP median scratch)");
        }
    }
    ~MedianScratch() { cudaFreeAsync(data_, npp().context.hStream); }
    MedianScratch(const MedianScratch &) = delete;
    MedianScratch &operator=(const MedianScratch &) = delete;
    uint8_t *get() const { return data_; }

private:
    uint8_t *data_ = nullptr;
};

void run_median(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    const int k = static_cast<int>(params.at("size"));
    const NppiSize size{in.width, in.height}, mask{k, k};
    uint32_t bytes = 0;
    check_npp(npp().median_buffer_size(size, mask, &bytes, kBorderReplicate, npp().context),
              "nppiFilterMedianBorderGetBufferSize_8u_C1R_Ctx");
    const MedianScratch scratch(bytes);
    for (int c = 0; c < in.channels; c++) {
        check_npp(npp().median(in.data + c * in.plane_stride, static_cast<int>(in.row_stride), size, {0, 0},
                               out.data + c * out.plane_stride, static_cast<int>(out.row_stride), size, mask,
                               {k / 2, k / 2}, scratch.get(), kBorderReplicate, npp().context),
                  "nppiFilterMedianBorder_8u_C1R_Ctx");
    }
}

// NPP's 5x5 Gaussian has its own fixed weights (sigma 0.4 + 2 * 0.6 = 1.6,
// whatever sigma is asked): timed for comparison, reported as differing.
void run_gaussian(const PlanarView &in, const PlanarView &out, const ParamValues &) {
    const NppiSize size{in.width, in.height};
    for (int c = 0; c < in.channels; c++) {
        check_npp(npp().gauss(in.data + c * in.plane_stride, static_cast<int>(in.row_stride), size, {0, 0},
                              out.data + c * out.plane_stride, static_cast<int>(out.row_stride), size, kMask5x5,
                              kBorderReplicate, npp().context),
                  "nppiFilterGaussBorder_8u_C1R_Ctx");
    }
}

std::string why_unavailable() { return npp().error; }

const VariantRegistration median{{"median", "npp_median", Backend::cuda, Kind::peer, {},
                                  run_median, why_unavailable}};
const VariantRegistration gaussian{{"gaussian", "npp_gaussian", Backend::cuda, Kind::peer, {}, run_gaussian,
                                    why_unavailable, false}};
// NPP's box filter rounds differently (every sample within 1 of the contract).
const VariantRegistration box{{"box", "npp_box", Backend::cuda, Kind::peer, {}, run_box,
                               why_unavailable, false}};

}  // namespace
}  // namespace filterlab
