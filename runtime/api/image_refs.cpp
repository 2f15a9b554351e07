#include "image_refs.h"

#include <fmt/format.h>

#include <cstdint>
#include <vector>

#include "cuda_errors.h"
#include "error.h"

namespace filterlab::api {
namespace {

std::ptrdiff_t row_bytes(const ImageRef &i) {
    return static_cast<std::ptrdiff_t>(i.width) * (i.layout == Layout::interleaved ? i.channels : 1);
}
std::ptrdiff_t row_pitch(const ImageRef &i) { return i.row_pitch ? i.row_pitch : row_bytes(i); }
std::ptrdiff_t plane_pitch(const ImageRef &i) {
    return i.plane_pitch ? i.plane_pitch : row_pitch(i) * i.height;
}
int planes(const ImageRef &i) { return i.layout == Layout::planar ? i.channels : 1; }

bool aligned16(std::ptrdiff_t v) { return v % 16 == 0; }

// The same image in host memory, packed rows: the caller's host image as it
// is, or a copy of its device image (rows of row_bytes, its layout kept).
struct HostImage {
    ImageRef ref;
    std::vector<uint8_t> storage;
};

// The caller's host image itself, or packed host storage for a device image.
HostImage on_host(const ImageRef &image) {
    if (image.memory == Memory::host) return {image, {}};
    HostImage h{image, std::vector<uint8_t>(static_cast<std::size_t>(row_bytes(image)) * image.height * planes(image))};
    h.ref.data = h.storage.data();
    h.ref.memory = Memory::host;
    h.ref.row_pitch = row_bytes(image);
    h.ref.plane_pitch = row_bytes(image) * image.height;
    return h;
}

HostImage download(const ImageRef &image, cudaStream_t stream) {
    HostImage h = on_host(image);
    if (image.memory == Memory::host) return h;
    for (int p = 0; p < planes(image); p++) {
        cuda_check(cudaMemcpy2DAsync(h.ref.data + p * h.ref.plane_pitch, h.ref.row_pitch,
                                     image.data + p * plane_pitch(image), row_pitch(image), row_bytes(image),
                                     image.height, cudaMemcpyDeviceToHost, stream),
                   "cudaMemcpy2DAsync (device to host)");
    }
    cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    return h;
}

void upload(const HostImage &h, const ImageRef &target, cudaStream_t stream) {
    for (int p = 0; p < planes(target); p++) {
        cuda_check(cudaMemcpy2DAsync(target.data + p * plane_pitch(target), row_pitch(target),
                                     h.ref.data + p * h.ref.plane_pitch, h.ref.row_pitch, row_bytes(target),
                                     target.height, cudaMemcpyHostToDevice, stream),
                   "cudaMemcpy2DAsync (host to device)");
    }
    cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

// Where sample (x, y, c) of a host ImageRef lives.
uint8_t *sample(const ImageRef &i, int x, int y, int c) {
    if (i.layout == Layout::interleaved) return i.data + y * row_pitch(i) + static_cast<std::ptrdiff_t>(x) * i.channels + c;
    return i.data + c * plane_pitch(i) + y * row_pitch(i) + x;
}

}  // namespace

void check_image(const ImageRef &i, const char *which) {
    if (!i.data) throw Error(fmt::format("{} image: no data", which));
    try {
        check_image_shape(i.width, i.height, i.channels);  // the contract's sizes, 1 or 3 channels
    } catch (const Error &e) {
        throw Error(fmt::format("{} image: {}", which, e.what()));
    }
    if (row_pitch(i) < row_bytes(i)) {
        throw Error(fmt::format("{} image: row pitch {} is below a row's {} bytes", which, row_pitch(i), row_bytes(i)));
    }
    if (i.layout == Layout::planar && i.channels > 1 && plane_pitch(i) < row_pitch(i) * i.height) {
        throw Error(fmt::format("{} image: plane pitch {} is below a plane's {} bytes", which, plane_pitch(i),
                                row_pitch(i) * i.height));
    }
    if (i.memory == Memory::cuda_device) {
        // The calling thread's current device's memory only: the variants run
        // there (Halide's CUDA runtime in that device's primary context).
        cudaPointerAttributes a{};
        const cudaError_t status = cudaPointerGetAttributes(&a, i.data);
        cudaGetLastError();  // a failed query is answered here, not by the next CUDA call
        if (loses_gpu_state(status)) cuda_check(status, "cudaPointerGetAttributes");  // says the state is lost
        int current = 0;
        if (status == cudaSuccess) cuda_check(cudaGetDevice(&current), "cudaGetDevice");
        if (status != cudaSuccess || (a.type != cudaMemoryTypeDevice && a.type != cudaMemoryTypeManaged) ||
            a.device != current) {
            throw Error(fmt::format("{} image: not CUDA device memory of the current device", which));
        }
    }
}

std::ptrdiff_t extent_bytes(const ImageRef &i) {
    return (planes(i) - 1) * plane_pitch(i) + (i.height - 1) * row_pitch(i) + row_bytes(i);
}

PlanarView view_in_place(const ImageRef &i, bool aligned) {
    if (i.layout != Layout::planar && i.channels > 1) return {};
    const std::ptrdiff_t rows = row_pitch(i), plane = plane_pitch(i);
    if (rows > INT32_MAX || plane > INT32_MAX) return {};  // Halide's strides are 32-bit
    if (aligned && !(aligned16(reinterpret_cast<std::ptrdiff_t>(i.data)) && aligned16(rows) && aligned16(plane))) {
        return {};
    }
    return {i.data, i.width, i.height, i.channels, rows, plane};
}

Image gather(const ImageRef &image, cudaStream_t stream) {
    const HostImage h = download(image, stream);
    Image out(image.width, image.height, image.channels);
    for (int c = 0; c < image.channels; c++)
        for (int y = 0; y < image.height; y++)
            for (int x = 0; x < image.width; x++) out.at(x, y, c) = *sample(h.ref, x, y, c);
    return out;
}

void scatter(const Image &image, const ImageRef &target, cudaStream_t stream) {
    HostImage h = on_host(target);
    for (int c = 0; c < image.channels(); c++)
        for (int y = 0; y < image.height(); y++)
            for (int x = 0; x < image.width(); x++) *sample(h.ref, x, y, c) = image.at(x, y, c);
    if (target.memory == Memory::cuda_device) upload(h, target, stream);
}

}  // namespace filterlab::api
