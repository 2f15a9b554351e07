#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace filterlab::cli {

struct ListOptions {
    bool json = false;
    std::string filter;
};
struct RunOptions {
    std::string filter, variant, input, output;
    std::vector<std::string> params;
    std::string noise;         // "salt_pepper:DENSITY" or "gaussian:SIGMA"; empty: none
    std::string seed = "1";  // parsed strictly: an integer in 0..2^64-1
    std::string noisy_output;  // where to write the noisy input, if asked
};
struct CheckOptionsCli {
    std::string filter, variant, images;
    bool quick = false, sanitizer = false;
};

int list_variants(const ListOptions &options);
int run_variant_on_file(const RunOptions &options);
int check_variants(const CheckOptionsCli &options);
int show_info();

// The folder of real images: $FILTERLAB_IMAGES, else the bundled tests/images
// (looked up beside the sources, then under the current directory).
std::string default_images_dir();

}  // namespace filterlab::cli
