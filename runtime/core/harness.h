// Runs one variant on one host image, whatever its backend: the output is
// poisoned first, CUDA variants get device copies, and writes outside the
// output are detected through guard bytes around it.
#pragma once

#include <cstdint>

#include "filters.h"
#include "image.h"
#include "registry.h"

namespace filterlab {

// Throws Error unless `variant` can run here on a width x height image with
// these parameters: available, the parameters within the contract and what
// the variant supports, the image at least the filter's smallest.
void check_can_run(const Variant &variant, const ParamValues &params, int width, int height, int channels);

// check_can_run, then runs and returns the output. Throws Error.
Image run_variant(const Variant &variant, const Image &input, const ParamValues &params, uint8_t poison = 0xA5);

// Host views <-> images (dense planar host memory only).
Image image_from_view(const PlanarView &view);
void copy_to_view(const Image &image, const PlanarView &view);

}  // namespace filterlab
