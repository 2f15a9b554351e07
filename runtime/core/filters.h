// The contract of FILTERS.md as data: each filter's parameters (names,
// defaults, domains), its output size, its reference and how an output is
// compared with the reference.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "image.h"

namespace filterlab {

using ParamValues = std::map<std::string, double>;

struct ParamDef {
    std::string name;
    double default_value = 0;
    double min = 0, max = 0;       // the contract's domain
    bool integer = true;
    bool min_exclusive = false;   // (min, max] instead of [min, max]
    std::vector<double> allowed;  // when non-empty, only these values
    std::string help;
    bool accepts(double value) const;
    std::string domain() const;  // e.g. "an integer in 1..15"
};

struct Comparison {
    bool equal = true;          // within the contract (exact, or nlmeans' tolerance)
    int max_difference = 0;
    std::size_t mismatches = 0;  // samples that differ at all
    int first_x = -1, first_y = -1, first_c = -1;
    std::string describe() const;
};

// The noise a filter is there to remove, added to the gallery's pictures.
struct GalleryNoise {
    std::string kind;         // salt_pepper, gaussian, or empty: none
    double amount = 0;        // density, or sigma
    std::string amount_from;  // when set, the amount is this parameter's value
    std::string why;
};

std::pair<int, int> same_size(int width, int height);
std::pair<int, int> half_size(int width, int height);  // 2x2 pooling, stride 2

// One filter of the contract, as data: adding a filter is one entry in
// filters.cpp (its generator, schedules, kernels and tests aside).
struct FilterInfo {
    std::string name;
    std::string summary;
    std::vector<ParamDef> params;
    bool exact = true;  // false: the nlmeans tolerance of FILTERS.md
    std::function<std::pair<int, int>(int, int)> output_size = same_size;
    int min_side = 1;
    std::function<Image(const Image &, const ParamValues &)> reference;
    // `filterlab check`'s parameter sets, each overlaid on the defaults:
    // every value worth its own kernel instance, and a few for --quick.
    // Empty: the defaults alone.
    std::vector<ParamValues> check_params, quick_check_params;
    // The sets also checked on the large images (the others on small ones
    // only, where the reference is quick). Unset: every set.
    std::function<bool(const ParamValues &)> check_on_large_images;
    // About how many window samples the reference visits per output sample
    // (check and bench leave out cases whose reference would be too slow).
    std::function<double(const ParamValues &)> work_per_sample;
    // How many input rows (and columns) beyond its own an output sample
    // reads: the halo a band of rows needs (runtime/mpi/bands.h). Its own
    // rows are one, or the 2x2 block of a pooled output.
    std::function<int(const ParamValues &)> reach;
    GalleryNoise gallery_noise;
    // The algorithms its variants implement, each a name and why it costs what
    // it does; the first is a variant's unless it names another
    // (generators/<filter>.h defines the Halide ones under the same names).
    std::vector<std::pair<std::string, std::string>> algorithms = {
        {"direct", "each output visits its whole window, as FILTERS.md writes it"}};

    // Defaults overlaid with the given NAME=VALUE strings, each validated.
    ParamValues parse_params(const std::vector<std::string> &assignments) const;
    ParamValues defaults() const;
    // How an output is compared with the reference, in words ("exact", or
    // nlmeans' tolerance).
    std::string tolerance() const;
    void validate(const ParamValues &values) const;
};

const std::vector<FilterInfo> &all_filters();
const FilterInfo &filter_info(const std::string &name);  // throws Error for an unknown filter

// Compares an output with the reference under the filter's rule.
Comparison compare_to_reference(const FilterInfo &filter, const Image &expected, const Image &actual);

// About how many window samples the reference visits per output sample (a
// cost estimate: check and bench leave out cases whose reference is too slow).
double reference_work_per_sample(const FilterInfo &filter, const ParamValues &params);

std::string format_params(const ParamValues &values);  // "radius=1 sigma=1.5"

}  // namespace filterlab
