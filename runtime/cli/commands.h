#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace filterlab::cli {

// Exit statuses (docs/cli.md): 2 when the command line cannot be
// parsed (an unknown command or option, a missing or malformed value), 1 for
// every other failure (a file, a parameter outside the contract, a variant
// that fails its check, no GPU, no memory), 0 otherwise.
constexpr int kExitOk = 0, kExitFailure = 1, kExitUsage = 2;

// `filterlab --version`: version, commit, Halide, targets, CUDA runtime.
std::string version_text();

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
    std::string format;        // with output "-" (standard output): png, pgm, ppm, pnm or bmp
    bool quiet = false;        // no summary line
    int band_rows = 0;         // streamed runs: output rows a band (0: about 32 MiB of input)
    bool whole_image = false;  // read the whole image instead of streaming it in bands
    bool pwrite = false;       // streamed runs: write rows with pwrite, not through mapped windows
    int gpus = 1;              // streamed runs of a CUDA variant in one process: GPUs its bands go to (0: all)
};
struct CheckOptionsCli {
    std::string filter, variant, images;
    bool quick = false, sanitizer = false;
    bool json = false, quiet = false;
    std::string junit;  // a JUnit XML file to write, if asked
};

int list_variants(const ListOptions &options);
int run_variant_on_file(const RunOptions &options);
int check_variants(const CheckOptionsCli &options);
int show_info(bool json);
// Each notice as one `filterlab: notice:` line on standard error; then none are left.
void print_notices(std::vector<std::string> &notices);

// The folder of real images: $FILTERLAB_IMAGES, else the bundled tests/images
// (looked up beside the sources, then under the current directory).
std::string default_images_dir();

}  // namespace filterlab::cli
