// The pictures of a benchmark run, made where the variants run (the GPU
// machine has no Python, so `filterlab report` finds them ready in the run
// directory): for each benchmarked filter, a real image with noise added, the
// filtered output, each variant's output histogram, whether each output is
// byte-identical to the reference's, and the PSNR before and after.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "filters.h"
#include "registry.h"

namespace filterlab {

// The bundled image the gallery filters (looked up in the images folder).
constexpr const char *kGalleryImage = "gray_small.png";

// Writes <run_dir>/gallery/: gallery.json, <filter>_noisy.png,
// <filter>_output.png, <filter>_histograms.csv. `params_of` gives the
// parameters the benchmark used for a filter. Without the image (no images
// folder), gallery.json says why and nothing else is written. Returns one
// line saying what was written.
std::string write_gallery(const std::string &run_dir, const std::vector<const Variant *> &variants,
                          const std::function<ParamValues(const FilterInfo &)> &params_of,
                          const std::string &images_dir);

// Writes <run_dir>/gallery/gallery.json with no pictures, saying `why`;
// returns the line saying so.
std::string write_no_gallery(const std::string &run_dir, const std::string &why);

}  // namespace filterlab
