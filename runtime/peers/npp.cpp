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

using FilterBoxBorder = int (*)(const uint8_t *, int, NppiSize, NppiPoint, uint8_t *, int, NppiSize, NppiSize,
                                NppiPoint, int, NppStreamContext);

struct Npp {
    std::string error;
    FilterBoxBorder box = nullptr;
    NppStreamContext context{};
};

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
        n.box = reinterpret_cast<FilterBoxBorder>(dlsym(filtering, "nppiFilterBoxBorder_8u_C1R_Ctx"));
        if (!n.box) {
            n.error = "NPP lacks nppiFilterBoxBorder_8u_C1R_Ctx";
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

void run_box(const PlanarView &in, const PlanarView &out, const ParamValues &params) {
    const int r = static_cast<int>(params.at("radius"));
    const NppiSize size{in.width, in.height}, mask{2 * r + 1, 2 * r + 1};
    for (int c = 0; c < in.channels; c++) {
        const int status = npp().box(in.data + c * in.plane_stride, static_cast<int>(in.row_stride), size, {0, 0},
                                     out.data + c * out.plane_stride, static_cast<int>(out.row_stride), size, mask,
                                     {r, r}, kBorderReplicate, npp().context);
        if (status != 0) throw Error("nppiFilterBoxBorder_8u_C1R_Ctx failed with NPP status " + std::to_string(status));
    }
}

const VariantRegistration box{{"box", "npp_box", Backend::cuda, Kind::peer, parse_supports("radius=1..15"), run_box,
                               [] { return npp().error; }}};

}  // namespace
}  // namespace filterlab
