// The check's matrix: which images and parameter sets each filter is
// checked on (the full, quick and sanitizer matrices, and the build's
// shapes), apart from running the variants on them (check.cpp).
#include "check.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>

#include "image_io.h"
#include "noise.h"

namespace filterlab {
namespace {

struct Size {
    int width, height;
};

// 1x1, single rows and columns, odd and prime sizes, sizes just off every
// power-of-two tile (8..256), one large one, and widths in the aligned class
// (multiples of 64, image_shape.h) over odd heights, not multiples of 128 or
// 256 tiles: a DSL variant's aligned path takes them.
const std::vector<Size> kSizes = {{1, 1},    {1, 19},    {19, 1},    {2, 3},     {5, 4},      {17, 13},
                                  {31, 37},  {63, 65},   {97, 89},   {127, 131}, {257, 129},  {509, 383},
                                  {2053, 1543}, {64, 3}, {192, 77},  {1088, 61}};
const std::vector<Size> kQuickSizes = {{1, 1},     {1, 19},    {19, 1}, {5, 4},
                                       {31, 37},   {127, 131}, {257, 129}, {64, 3}, {192, 77}};
// For compute-sanitizer, whose every launch is slow: each odd or degenerate
// size once, with 1 and 3 channels in turn.
struct SizedInput {
    Size size;
    int channels;
};
const std::vector<SizedInput> kSanitizerInputs = {{{1, 1}, 1},   {{1, 19}, 3},  {{19, 1}, 1},  {{2, 3}, 3},
                                                  {{5, 4}, 1},   {{31, 37}, 3}, {{97, 89}, 1}, {{63, 65}, 3},
                                                  {{192, 77}, 1}, {{64, 3}, 3}};
constexpr long long kLargePixels = 1'000'000;
// Reference work per case (window samples visited), beyond which a case is
// left out of the matrix: a large radius is checked on the smaller sizes.
constexpr double kReferenceBudget = 4e8;
// Images up to this many samples are "small": every parameter set is checked on them.
constexpr std::size_t kSmallSamples = 70000;

// The filter's check parameter sets, each overlaid on its defaults.
std::vector<ParamValues> param_sets(const FilterInfo &filter, bool quick) {
    const auto &sets = quick && !filter.quick_check_params.empty() ? filter.quick_check_params : filter.check_params;
    if (sets.empty()) return {filter.defaults()};
    std::vector<ParamValues> out;
    for (const ParamValues &set : sets) {
        ParamValues p = filter.defaults();
        for (auto &[k, v] : set) p[k] = v;
        out.push_back(p);
    }
    return out;
}

Image gradient(int w, int h, int channels) {
    Image image(w, h, channels);
    for (int c = 0; c < channels; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) image.at(x, y, c) = static_cast<uint8_t>((x * 7 + y * 3 + c * 50) & 255);
    return image;
}

Image make_content(const std::string &content, Size size, int channels, uint64_t seed) {
    if (content == "random") return random_image(size.width, size.height, channels, seed);
    if (content == "zeros") return Image(size.width, size.height, channels, 0);
    if (content == "ones") return Image(size.width, size.height, channels, 255);
    if (content == "gradient") return gradient(size.width, size.height, channels);
    Image image = gradient(size.width, size.height, channels);  // salt_pepper
    add_salt_and_pepper(image, 0.2, seed);
    return image;
}


// Adds a case to the matrix unless the image is smaller than the filter takes,
// its reference over budget, or the parameters are not checked on large images.
void add_case(std::vector<CheckCase> &cases, const FilterInfo &filter, const std::string &content, Image image,
              const ParamValues &params) {
    const double work = double(image.size()) * reference_work_per_sample(filter, params);
    if (image.width() < filter.min_side || image.height() < filter.min_side) return;
    if (work > kReferenceBudget) return;
    if (image.size() > kSmallSamples && filter.check_on_large_images && !filter.check_on_large_images(params)) return;
    cases.push_back({content, std::move(image), params});
}

// The matrix under the sanitizers, where a launch costs milliseconds: every
// input with the defaults; every other parameter set on a tiny RGB image (a
// reach beyond the image) and an odd gray one larger than any reach.
std::vector<CheckCase> sanitizer_cases(const FilterInfo &filter, const std::vector<ParamValues> &sets) {
    std::vector<CheckCase> cases;
    uint64_t seed = 1;
    for (const SizedInput &in : kSanitizerInputs)
        add_case(cases, filter, "random", make_content("random", in.size, in.channels, seed++), filter.defaults());
    for (auto &params : sets) {
        if (params == filter.defaults()) continue;
        add_case(cases, filter, "random", make_content("random", {2, 3}, 3, seed++), params);
        add_case(cases, filter, "random", make_content("random", {97, 89}, 1, seed++), params);
    }
    return cases;
}

// Every size, channel count and content (a large size: random only) with every parameter set.
void add_synthetic_cases(std::vector<CheckCase> &cases, const FilterInfo &filter,
                         const std::vector<ParamValues> &sets, bool quick) {
    uint64_t seed = 1;
    for (Size size : quick ? kQuickSizes : kSizes) {
        const bool large = 1LL * size.width * size.height > kLargePixels;
        for (int channels : {1, 3})
            for (const char *content : {"random", "salt_pepper", "zeros", "ones", "gradient"}) {
                if (large && std::string(content) != "random") continue;
                for (auto &params : sets)
                    add_case(cases, filter, content, make_content(content, size, channels, seed++), params);
            }
    }
}

// Random images of every shape the build compiled a DSL variant of the filter
// for (FILTERLAB_SHAPES), gray and RGB, with every parameter set: each
// variant's exact path is checked where a call takes it (and its generic one
// at the same image: case_failure).
void add_build_shape_cases(std::vector<CheckCase> &cases, const FilterInfo &filter,
                           const std::vector<ParamValues> &sets, const CheckOptions &options) {
    // The shapes of the variants this check can run (a GPU's; with --variant, that one's):
    // on a machine without a GPU, none, and no image is made for them. Under the
    // sanitizers one launch of each path is enough: gray, the defaults, and every
    // parameter set of a variant that lists the values it takes (a library each:
    // TVM's compiled values, a Halide median's sizes).
    std::vector<ImageShape> shapes;
    std::vector<ParamValues> sanitized = {filter.defaults()};
    auto sanitizing = [&](const ParamValues &params) {
        return std::find(sanitized.begin(), sanitized.end(), params) != sanitized.end();
    };
    for (const Variant &v : all_variants()) {
        if (v.filter != filter.name || (!options.variant.empty() && v.name != options.variant)) continue;
        if (v.exact_shapes.empty() || !v.why_unavailable().empty()) continue;
        for (const ImageShape &s : v.exact_shapes)
            if (std::find(shapes.begin(), shapes.end(), s) == shapes.end()) shapes.push_back(s);
        if (std::none_of(v.supports.begin(), v.supports.end(), [](const ParamSupport &p) { return !p.values.empty(); }))
            continue;
        for (const ParamValues &params : sets)
            if (v.unsupported_reason(params).empty() && !sanitizing(params)) sanitized.push_back(params);
    }
    const bool sanitizer = options.sanitizer;
    uint64_t seed = 9001;
    for (const ImageShape &s : shapes)
        for (int channels : {1, 3})
            for (auto &params : sets) {
                if (sanitizer && (channels != 1 || !sanitizing(params))) continue;
                Image image = make_content("random", {s.width, s.height}, channels, seed++);
                const bool over_budget = double(image.size()) * reference_work_per_sample(filter, params) > kReferenceBudget;
                cases.push_back({"random", std::move(image), params, true, over_budget});
            }
}

// The real images of the images folder (gray.png not in the quick matrix), as
// they are and with salt-and-pepper noise, with every parameter set.
void add_real_image_cases(std::vector<CheckCase> &cases, const FilterInfo &filter,
                          const std::vector<ParamValues> &sets, const CheckOptions &options) {
    for (const char *name : {"gray_small.png", "rgb_small.png", "gray.png"}) {
        const std::string path = options.images_dir + "/" + name;
        if (options.quick && std::string(name) == "gray.png") continue;
        if (!std::filesystem::exists(path)) continue;
        const Image image = read_image(path);
        for (auto &params : sets) add_case(cases, filter, name, image, params);
        Image noisy = image;
        add_salt_and_pepper(noisy, 0.1, 7);
        for (auto &params : sets) add_case(cases, filter, std::string(name) + "+salt_pepper", noisy, params);
    }
}

}  // namespace

std::string CheckCase::label() const {
    return fmt::format("{}x{}x{} {}{} {}", input.width(), input.height(), input.channels(), content,
                       build_shape ? (against_generic ? " (a build shape, against its generic path)" : " (a build shape)") : "",
                       format_params(params));
}

std::vector<CheckCase> check_cases(const FilterInfo &filter, const CheckOptions &options) {
    const auto sets = param_sets(filter, options.quick && !options.sanitizer);
    std::vector<CheckCase> cases = options.sanitizer ? sanitizer_cases(filter, sets) : std::vector<CheckCase>{};
    add_build_shape_cases(cases, filter, sets, options);
    if (options.sanitizer) return cases;
    add_synthetic_cases(cases, filter, sets, options.quick);
    if (!options.images_dir.empty()) add_real_image_cases(cases, filter, sets, options);
    return cases;
}

}  // namespace filterlab
