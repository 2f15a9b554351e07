// The API on device memory: a 5x5 median of a PGM on the GPU, on a stream.
// usage: median_cuda IN.pgm OUT.pgm
#include <cuda_runtime.h>
#include <filterlab/filterlab.h>

#include <cstdio>

#include "../pgm.h"

int main(int argc, char **argv) {
    int w = 0, h = 0;
    unsigned char *pixels = argc == 3 ? read_pgm(argv[1], &w, &h) : nullptr;
    if (!pixels) return std::fprintf(stderr, "usage: median_cuda IN.pgm OUT.pgm (binary PGM)\n"), 2;
    unsigned char *in = nullptr, *out = nullptr;
    size_t pitch = 0;  // rows on the device, pitched (16-byte aligned): the variant works in place
    cudaStream_t stream;
    if (cudaStreamCreate(&stream) || cudaMallocPitch(&in, &pitch, w, h) || cudaMallocPitch(&out, &pitch, w, h))
        return std::fprintf(stderr, "median_cuda: no usable GPU\n"), 1;
    cudaMemcpy2DAsync(in, pitch, pixels, w, w, h, cudaMemcpyHostToDevice, stream);
    const filterlab::ImageRef din{in, w, h, 1, static_cast<std::ptrdiff_t>(pitch), filterlab::Layout::planar,
                                  filterlab::Memory::cuda_device};
    filterlab::ImageRef dout = din;
    dout.data = out;
    const filterlab::Outcome r = filterlab::median(din, dout, 5, {"", stream});
    cudaMemcpy2DAsync(pixels, w, out, pitch, w, h, cudaMemcpyDeviceToHost, stream);
    const bool ok = r && cudaStreamSynchronize(stream) == cudaSuccess && write_pgm(argv[2], pixels, w, h);
    if (!r) std::fprintf(stderr, "median_cuda: %s\n", r.message.c_str());
    else std::printf("%s\n", r.variant.c_str());
    return ok ? 0 : 1;
}
