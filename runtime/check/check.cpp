#include "check.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <map>
#include <optional>
#include <ostream>

#include "error.h"
#include "harness.h"
#include "image_io.h"
#include "noise.h"
#include "progress.h"
#include "shape_path.h"

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

// The reference output of case i of the matrix, kept for the next call on the
// same matrix: the variant tests check one variant per call, and the nlmeans
// reference would otherwise take most of a minute per variant.
const Image &reference_output(const FilterInfo &filter, const CheckOptions &options,
                              const std::vector<CheckCase> &cases, std::size_t i) {
    static const Image none;
    if (cases[i].against_generic) return none;  // each variant's own generic path (case_failure)
    static std::string matrix;
    static std::vector<std::optional<Image>> outputs;
    const std::string wanted = filter.name + (options.sanitizer ? " sanitizer " : options.quick ? " quick " : " full ") +
                               options.images_dir;
    if (matrix != wanted || outputs.size() != cases.size()) {
        matrix = wanted;
        outputs.assign(cases.size(), std::nullopt);
    }
    if (!outputs[i]) outputs[i] = filter.reference(cases[i].input, cases[i].params);
    return *outputs[i];
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
    // parameter set of a variant that cannot take the defaults (a library each).
    std::vector<ImageShape> shapes;
    std::vector<ParamValues> sanitized = {filter.defaults()};
    for (const Variant &v : all_variants()) {
        if (v.filter != filter.name || (!options.variant.empty() && v.name != options.variant)) continue;
        if (v.exact_shapes.empty() || !v.why_unavailable().empty()) continue;
        for (const ImageShape &s : v.exact_shapes)
            if (std::find(shapes.begin(), shapes.end(), s) == shapes.end()) shapes.push_back(s);
        if (v.unsupported_reason(filter.defaults()).empty()) continue;
        for (const ParamValues &params : sets)
            if (v.unsupported_reason(params).empty() &&
                std::find(sanitized.begin(), sanitized.end(), params) == sanitized.end())
                sanitized.push_back(params);
    }
    const bool sanitizer = options.sanitizer;
    auto sanitizing = [&](const ParamValues &params) {
        return std::find(sanitized.begin(), sanitized.end(), params) != sanitized.end();
    };
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

namespace {

// The variants of `filter` the options select, each with its reason to be skipped (if any).
std::vector<VariantResult> selected_variants(const FilterInfo &filter, const CheckOptions &options) {
    std::vector<VariantResult> mine;
    for (const Variant &v : all_variants()) {
        if (v.filter != filter.name || v.kind == Kind::reference) continue;
        if (!options.variant.empty() && v.name != options.variant) continue;
        if (options.variant.empty() && !options.variants.empty() &&
            std::find(options.variants.begin(), options.variants.end(), v.name) == options.variants.end())
            continue;
        VariantResult r;
        r.variant = &v;
        r.skip_reason = v.why_unavailable();
        mine.push_back(r);
    }
    return mine;
}

// Runs r's variant on case k under each poison: the first mismatch or error,
// empty if none; `differs` set where the variant is a peer documented to
// compute another function.
std::string case_failure(const FilterInfo &filter, const CheckOptions &options, const CheckCase &k,
                         const Image &expected, VariantResult &r, bool &differs) {
    std::string failure;
    try {
        // One poison under compute-sanitizer: it looks for bad accesses, not unwritten samples.
        const std::vector<uint8_t> poisons =
            options.sanitizer ? std::vector<uint8_t>{0xA5} : std::vector<uint8_t>{0xA5, 0x5A};
        std::optional<Image> generic;  // the oracle of a case whose reference is over budget
        if (k.against_generic) {
            const PathCeilingScope scope(ShapePath::generic);
            generic = run_variant(*r.variant, k.input, k.params, 0xA5);
        }
        for (uint8_t poison : poisons) {
            const Image actual = run_variant(*r.variant, k.input, k.params, poison);
            const Comparison cmp = compare_to_reference(filter, generic ? *generic : expected, actual);
            r.max_difference = std::max(r.max_difference, cmp.max_difference);
            if (!cmp.equal) {
                failure = fmt::format("poison 0x{:02X}: {}", poison, cmp.describe());
                differs = !r.variant->computes_contract;
                break;
            }
        }
        // A shape or class the variant was compiled for: its more general paths at the same image too.
        for (ShapePath path : more_general_paths(*r.variant, {k.input.width(), k.input.height()})) {
            if (!failure.empty() || generic) break;
            const PathCeilingScope ceiling(path);
            const Comparison cmp = compare_to_reference(filter, expected, run_variant(*r.variant, k.input, k.params, 0xA5));
            if (!cmp.equal) failure = fmt::format("its {} path at this image: {}", to_string(path), cmp.describe());
        }
    } catch (const MachineError &) {
        throw;  // the machine is short, not the variant: the command ends
    } catch (const Error &e) {
        failure = e.what();
    }
    return failure;
}

// Counts one case's outcome in r; logs a peer's first difference and the first five failures.
void record_outcome(const FilterInfo &filter, const CheckCase &k, const std::string &failure, bool differs,
                    VariantResult &r, Progress &progress, std::ostream &log) {
    if (failure.empty()) {
        r.passed++;
    } else if (differs) {
        // A peer documented to compute another function: reported, not failed.
        if (r.differs++ == 0) {
            progress.interrupt();
            fmt::print(log, "DIFFERS (peer) {}/{} {}: {}\n", filter.name, r.variant->name, k.label(), failure);
        }
    } else {
        r.failed++;
        if (r.failures.size() < 5) {
            r.failures.push_back(k.label() + ": " + failure);
            progress.interrupt();
            fmt::print(log, "FAIL {}/{} {}: {}\n", filter.name, r.variant->name, k.label(), failure);
        }
    }
}

// Checks r's variant on case k (or counts it skipped), timing it.
void check_case(const FilterInfo &filter, const CheckOptions &options, const CheckCase &k, const Image &expected,
                VariantResult &r, Progress &progress, std::ostream &log) {
    if (k.build_shape && shape_path(*r.variant, {k.input.width(), k.input.height()}) != "exact") return;  // not its case
    if (!r.skip_reason.empty() ||
        !r.variant->unsupported_reason(k.params, k.input.width(), k.input.height(), k.input.channels()).empty()) {
        r.skipped++;
        return;
    }
    const auto start = std::chrono::steady_clock::now();
    bool differs = false;
    const std::string failure = case_failure(filter, options, k, expected, r, differs);
    r.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    record_outcome(filter, k, failure, differs, r, progress, log);
}

// Checks the selected variants of one filter on every case of its matrix,
// saying how far it is every 50 cases.
void check_filter(const FilterInfo &filter, const CheckOptions &options, std::vector<VariantResult> &mine,
                  std::ostream &log) {
    const std::vector<CheckCase> cases = check_cases(filter, options);
    fmt::print(log, "{}: {} cases, {} variants\n", filter.name, cases.size(), mine.size());
    Progress progress("check " + filter.name, cases.size(), options.quiet);
    for (std::size_t i = 0; i < cases.size(); i++) {
        progress.advance();
        const CheckCase &k = cases[i];
        // A build shape no selected variant that can run here was compiled for needs no reference.
        const bool wanted = !k.build_shape || std::any_of(mine.begin(), mine.end(), [&](const VariantResult &r) {
            return r.skip_reason.empty() && shape_path(*r.variant, {k.input.width(), k.input.height()}) == "exact";
        });
        if (wanted) {
            const Image &expected = reference_output(filter, options, cases, i);
            for (VariantResult &r : mine) check_case(filter, options, k, expected, r, progress, log);
        }
        if ((i + 1) % 50 == 0 || i + 1 == cases.size()) {
            progress.interrupt();
            fmt::print(log, "  {}: {}/{} cases done\n", filter.name, i + 1, cases.size());
            log.flush();
        }
    }
}

}  // namespace

std::vector<VariantResult> run_check(const CheckOptions &options, std::ostream &log) {
    std::vector<VariantResult> results;
    for (const FilterInfo &filter : all_filters()) {
        if (!options.filter.empty() && filter.name != options.filter) continue;
        std::vector<VariantResult> mine = selected_variants(filter, options);
        if (mine.empty()) continue;
        check_filter(filter, options, mine, log);
        results.insert(results.end(), mine.begin(), mine.end());
    }
    return results;
}

CheckTotals totals(const std::vector<VariantResult> &results) {
    CheckTotals t;
    for (const VariantResult &r : results) t.passed += r.passed, t.failed += r.failed, t.skipped += r.skipped, t.differs += r.differs;
    return t;
}

std::string VariantResult::verdict() const {
    if (failed) return "FAIL";
    if (differs) return fmt::format("DIFFERS from the contract in {} cases (peer)", differs);
    return passed == 0 ? "SKIPPED" : "ok";
}

void print_check_table(const std::vector<VariantResult> &results, std::ostream &out) {
    fmt::print(out, "{:<9} {:<22} {:<5} {:<12} {:>6} {:>7} {:>7} {:>8} {:>9} {:>8}  {}\n", "filter", "variant",
               "back", "kind", "cases", "passed", "failed", "skipped", "max|diff|", "seconds", "result");
    for (auto &r : results) {
        const Variant &v = *r.variant;
        const std::string verdict = r.verdict();
        fmt::print(out, "{:<9} {:<22} {:<5} {:<12} {:>6} {:>7} {:>7} {:>8} {:>9} {:>8.2f}  {}{}\n", v.filter, v.name,
                   to_string(v.backend), to_string(v.kind), r.passed + r.failed + r.skipped + r.differs, r.passed, r.failed,
                   r.skipped, r.max_difference, r.seconds, verdict,
                   r.skip_reason.empty() ? "" : " (" + r.skip_reason + ")");
    }
}

}  // namespace filterlab
