// The four classic 3x3 mean kernels of TECHNIQUES.md, made exact under
// FILTERS.md (clamp border, (sum + 4) / 9). Gold: reference::box.
#include "plane.h"
#include "registry.h"

namespace filterlab::handwritten {
namespace {

__device__ inline uint8_t mean3x3_clamped(const uint8_t *in, std::ptrdiff_t pitch, int w, int h, int x, int y) {
    int sum = 0;
    for (int j = -1; j <= 1; j++) {
        const uint8_t *row = in + clamp_index(y + j, h - 1) * pitch;
        for (int i = -1; i <= 1; i++) sum += row[clamp_index(x + i, w - 1)];
    }
    return static_cast<uint8_t>((sum + 4) / 9);
}

// 1. One block of 16x16 threads strides over the whole image.
__global__ void one_block_kernel(Plane p) {
    for (int y = threadIdx.y; y < p.height; y += blockDim.y)
        for (int x = threadIdx.x; x < p.width; x += blockDim.x)
            p.out[y * p.out_pitch + x] = mean3x3_clamped(p.in, p.in_pitch, p.width, p.height, x, y);
}

// 2. Many blocks; each thread strides by the whole grid over the pixels.
__global__ void grid_stride_kernel(Plane p) {
    const long long total = static_cast<long long>(p.width) * p.height;
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < total;
         i += static_cast<long long>(gridDim.x) * blockDim.x) {
        const int x = static_cast<int>(i % p.width), y = static_cast<int>(i / p.width);
        p.out[y * p.out_pitch + x] = mean3x3_clamped(p.in, p.in_pitch, p.width, p.height, x, y);
    }
}

// 3. A 16x16 block loads an 18x18 tile: its pixels, then the one-pixel halo
// by the edge threads (four edges, four corners); sync; sum from shared memory.
constexpr int kTile = 16;
__global__ void shared_tile_kernel(Plane p) {
    __shared__ uint8_t tile[kTile + 2][kTile + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * kTile + tx, y = blockIdx.y * kTile + ty;
    auto load = [&](int dx, int dy) {
        tile[ty + 1 + dy][tx + 1 + dx] =
            p.in[clamp_index(y + dy, p.height - 1) * p.in_pitch + clamp_index(x + dx, p.width - 1)];
    };
    load(0, 0);
    if (tx == 0) load(-1, 0);
    if (tx == kTile - 1) load(1, 0);
    if (ty == 0) load(0, -1);
    if (ty == kTile - 1) load(0, 1);
    if (tx == 0 && ty == 0) load(-1, -1);
    if (tx == kTile - 1 && ty == 0) load(1, -1);
    if (tx == 0 && ty == kTile - 1) load(-1, 1);
    if (tx == kTile - 1 && ty == kTile - 1) load(1, 1);
    __syncthreads();
    if (x >= p.width || y >= p.height) return;
    int sum = 0;
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) sum += tile[ty + j][tx + i];
    p.out[y * p.out_pitch + x] = static_cast<uint8_t>((sum + 4) / 9);
}

// 4. Reads through a texture object over a cudaArray: point filtering,
// normalised coordinates (x + 0.5) / width. The original used the border
// (zero) address mode; the contract's border is clamp, so clamp it is.
__global__ void texture_kernel(cudaTextureObject_t tex, uint8_t *out, std::ptrdiff_t pitch, int w, int h) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int sum = 0;
    for (int j = -1; j <= 1; j++)
        for (int i = -1; i <= 1; i++) sum += tex2D<uint8_t>(tex, (x + i + 0.5f) / w, (y + j + 0.5f) / h);
    out[y * pitch + x] = static_cast<uint8_t>((sum + 4) / 9);
}

dim3 tiles(int w, int h) { return dim3((w + kTile - 1) / kTile, (h + kTile - 1) / kTile); }

void run_one_block(const PlanarView &in, const PlanarView &out, const ParamValues &) {
    for_each_plane(in, out, "box one_block_kernel", [](const Plane &p) { one_block_kernel<<<1, dim3(16, 16), 0, stream()>>>(p); });
}

void run_grid_stride(const PlanarView &in, const PlanarView &out, const ParamValues &) {
    int device = 0, sms = 0;  // the device it launches on: the calling thread's
    cuda_check(cudaGetDevice(&device), "cudaGetDevice");
    cuda_check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "SM count");
    for_each_plane(in, out, "box grid_stride_kernel", [&](const Plane &p) { grid_stride_kernel<<<sms * 8, 256, 0, stream()>>>(p); });
}

void run_shared_tile(const PlanarView &in, const PlanarView &out, const ParamValues &) {
    for_each_plane(in, out, "box shared_tile_kernel",
                   [&](const Plane &p) { shared_tile_kernel<<<tiles(in.width, in.height), dim3(kTile, kTile), 0, stream()>>>(p); });
}

void run_texture(const PlanarView &in, const PlanarView &out, const ParamValues &) {
    for (int c = 0; c < in.channels; c++) {
        const Plane p = plane(in, out, c);
        cudaArray_t array = nullptr;
        const cudaChannelFormatDesc format = cudaCreateChannelDesc<uint8_t>();
        cuda_check(cudaMallocArray(&array, &format, p.width, p.height), "cudaMallocArray");
        cudaTextureObject_t tex = 0;
        try {
            cuda_check(cudaMemcpy2DToArrayAsync(array, 0, 0, p.in, p.in_pitch, p.width, p.height,
                                                cudaMemcpyDeviceToDevice, stream()),
                       "cudaMemcpy2DToArrayAsync");
            cudaResourceDesc resource{};
            resource.resType = cudaResourceTypeArray;
            resource.res.array.array = array;
            cudaTextureDesc texture{};
            texture.addressMode[0] = texture.addressMode[1] = cudaAddressModeClamp;
            texture.filterMode = cudaFilterModePoint;
            texture.readMode = cudaReadModeElementType;
            texture.normalizedCoords = 1;
            cuda_check(cudaCreateTextureObject(&tex, &resource, &texture, nullptr), "cudaCreateTextureObject");
            texture_kernel<<<tiles(p.width, p.height), dim3(kTile, kTile), 0, stream()>>>(tex, p.out, p.out_pitch, p.width,
                                                                           p.height);
            check_launch("box texture_kernel");
            // Destroying waits for nothing: keep the array until the kernel is done.
            cuda_check(cudaStreamSynchronize(stream()), "box texture_kernel");
        } catch (...) {
            if (tex) cudaDestroyTextureObject(tex);
            cudaFreeArray(array);
            throw;
        }
        cudaDestroyTextureObject(tex);
        cudaFreeArray(array);
    }
}

Variant classic(const char *name, RunFunction run) {
    return {"box", name, Backend::cuda, Kind::handwritten, parse_supports("radius=1"), std::move(run)};
}

const VariantRegistration one_block{classic("hw_one_block", run_one_block)};
const VariantRegistration grid_stride{classic("hw_grid_stride", run_grid_stride)};
const VariantRegistration shared_tile{classic("hw_shared16", run_shared_tile)};
const VariantRegistration texture{classic("hw_texture", run_texture)};

}  // namespace
}  // namespace filterlab::handwritten
