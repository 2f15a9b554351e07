// The public API's images (ImageRef) as the harness takes them: checked,
// viewed in place where the layout allows, else copied.
#pragma once

#include <cuda_runtime_api.h>

#include "filterlab/filterlab.h"
#include "image.h"

namespace filterlab::api {

// Throws Error when `image` cannot describe an image (null data, sizes beyond
// the contract's, pitches below a row or plane, device memory not of the calling thread's current device).
void check_image(const ImageRef &image, const char *which);
// Bytes from the first sample to one past the last.
std::ptrdiff_t extent_bytes(const ImageRef &image);

// The image as a planar view without copying, when its layout is planar (x
// stride 1) and, with `aligned`, its data, rows and planes start on 16-byte
// boundaries (what the CUDA variants take). Otherwise an empty view.
PlanarView view_in_place(const ImageRef &image, bool aligned);

// Copies between the caller's image (host or device, any layout) and a
// packed planar host image; device copies go on `stream`, then wait for it.
Image gather(const ImageRef &image, cudaStream_t stream);
void scatter(const Image &image, const ImageRef &target, cudaStream_t stream);

}  // namespace filterlab::api
