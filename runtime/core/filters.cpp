#include "filters.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <limits>
#include <optional>
#include <set>

#include "contract_ranges.h"
#include "error.h"
#include "numbers.h"
#include "reference.h"

// The filters below are designated initializers that name only what differs
// from the defaults, by design.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace filterlab {

bool ParamDef::accepts(double value) const {
    if (!std::isfinite(value)) return false;
    if (!allowed.empty()) return std::find(allowed.begin(), allowed.end(), value) != allowed.end();
    if (integer && value != std::floor(value)) return false;
    if (min_exclusive ? value <= min : value < min) return false;
    return value <= max;
}

std::string ParamDef::domain() const {
    if (!allowed.empty()) {
        std::string s = "one of";
        for (double v : allowed) s += fmt::format(" {:g}", v);
        return s;
    }
    if (integer) return fmt::format("an integer in {:g}..{:g}", min, max);
    return fmt::format("a number in {}{:g}, {:g}]", min_exclusive ? "(" : "[", min, max);
}

std::string Comparison::describe() const {
    if (mismatches == 0) return "exact";
    return fmt::format("{} samples differ, max |diff| {}, first at (x={}, y={}, c={})", mismatches, max_difference,
                       first_x, first_y, first_c);
}

std::pair<int, int> same_size(int width, int height) { return {width, height}; }
std::pair<int, int> half_size(int width, int height) { return {width / 2, height / 2}; }

namespace {

int as_int(const ParamValues &p, const char *name) { return static_cast<int>(p.at(name)); }

// Functions, not constants: the filters are made during static
// initialisation (variants register themselves), before namespace-scope
// objects of this file would be.

// sigma > 0 in the contract; the suite's domain (contract_ranges.h) stops
// short of 0 (the weights are [0, 0, 256, 0, 0] long before).
ParamDef sigma_param() {
    return {.name = "sigma", .default_value = 1.0, .min = kGaussianMinSigma, .max = kGaussianMaxSigma, .integer = false,
            .help = "standard deviation of the weights"};
}
// 0.2: the weights [0, 0, 256, 0, 0], the blur a copy (a path of its own in the hand kernels, dp2a's weights being bytes).
std::vector<ParamValues> sigma_checks() {
    return {{{"sigma", 1.0}}, {{"sigma", 0.6}}, {{"sigma", 2.5}}, {{"sigma", 0.2}}};
}
// The Gaussian's algorithms (generators/gaussian.h names the Halide ones).
std::vector<std::pair<std::string, std::string>> gaussian_algorithms() {
    return {{"rows_first", "separable, the horizontal pass first (16 bits), the vertical one on its sums (32 bits)"},
            {"columns_first", "separable, the vertical pass first on bytes (16 bits, two pixels a 32-bit word), "
                              "the horizontal one on its sums"},
            {"columns_first_dot", "columns_first, its horizontal pass a dot product of the four side taps (dp2a on "
                                  "the GPU) plus the centre"},
            {"columns_first_u16", "columns_first, its horizontal pass on the high and low bytes of the vertical sums: "
                                  "16 bits throughout"},
            {"direct", "the 25 taps of each output summed at once"}};
}
GalleryNoise smoothing_noise() {
    return {.kind = "gaussian", .amount = 20, .why = "additive Gaussian noise, which smoothing reduces"};
}

// The median's sizes (contract_ranges.h): its domain, and a check of each.
std::vector<double> median_sizes() { return {kMedianSizes.begin(), kMedianSizes.end()}; }
std::vector<ParamValues> median_size_checks() {
    std::vector<ParamValues> checks;
    for (int k : kMedianSizes) checks.push_back({{"size", double(k)}});
    return checks;
}

FilterInfo box() {
    std::vector<ParamValues> radii;  // every radius of the contract: each may be its own kernel instance
    for (int r = kBoxMinRadius; r <= kBoxMaxRadius; r++) radii.push_back({{"radius", double(r)}});
    return {.name = "box",
            .summary = "mean of the (2r+1)^2 window, rounded half up",
            .params = {{.name = "radius", .default_value = 1, .min = kBoxMinRadius, .max = kBoxMaxRadius,
                        .help = "window radius r; the window is (2r+1)^2"}},
            .reference = [](const Image &in, const ParamValues &p) { return reference::box(in, as_int(p, "radius")); },
            .check_params = radii,
            .quick_check_params = {{{"radius", 1}}, {{"radius", 4}}},
            .check_on_large_images = [](const ParamValues &p) {
                const double r = p.at("radius");
                return r <= 2 || r == 5 || r == kBoxMaxRadius;
            },
            .work_per_sample = [](const ParamValues &p) { return std::pow(2 * p.at("radius") + 1, 2); },
            .reach = [](const ParamValues &p) { return as_int(p, "radius"); },
            .gallery_noise = smoothing_noise(),
            .algorithms = {{"direct", "the window summed at once: (2r+1)^2 samples a pixel"},
                           {"separable", "row sums of 2r+1 samples, then 2r+1 of them summed down: the work per pixel "
                                         "grows with r"},
                           {"running_sums", "each sum is the last plus the entering sample minus the leaving one: "
                                            "the work per pixel does not grow with r"},
                           {"lane_running_sums", "running_sums in a warp's coordinates: a lane's column sums in "
                                                 "registers, its neighbours' by warp shuffles"}}};
}

FilterInfo median() {
    return {.name = "median",
            .summary = "exact median of the k x k window",
            .params = {{.name = "size", .default_value = 3, .min = double(kMedianSizes.front()),
                        .max = double(kMedianSizes.back()), .allowed = median_sizes(), .help = "window size k"}},
            .reference = [](const Image &in, const ParamValues &p) { return reference::median(in, as_int(p, "size")); },
            .check_params = median_size_checks(),
            .work_per_sample = [](const ParamValues &p) { return std::pow(p.at("size"), 2) * 4; },
            .reach = [](const ParamValues &p) { return as_int(p, "size") / 2; },
            .gallery_noise = {.kind = "salt_pepper", .amount = 0.1, .why = "impulse noise, which a median removes"},
            .algorithms = {{"direct", "every output sorts its own window's columns, then rows: the work per pixel "
                                      "is a whole network"},
                           {"separable", "a tile of outputs sorts what its windows share once (Adams 2021): the "
                                         "work per pixel is a fraction of a network"}}};
}

FilterInfo gaussian() {
    return {.name = "gaussian",
            .summary = "5x5 Gaussian in 8.8 fixed point",
            .params = {sigma_param()},
            .reference = [](const Image &in, const ParamValues &p) { return reference::gaussian(in, p.at("sigma")); },
            .check_params = sigma_checks(),
            .work_per_sample = [](const ParamValues &) { return 25.0; },
            .reach = [](const ParamValues &) { return 2; },  // the 5x5 window
            .gallery_noise = smoothing_noise(),
            .algorithms = gaussian_algorithms()};
}

FilterInfo maxpool() {
    return {.name = "maxpool",
            .summary = "2x2 max pooling, stride 2",
            .output_size = half_size,
            .min_side = 2,
            .reference = [](const Image &in, const ParamValues &) { return reference::maxpool(in); },
            .work_per_sample = [](const ParamValues &) { return 4.0; },
            .reach = [](const ParamValues &) { return 0; },
            .gallery_noise = {.why = "max pooling downsamples, it does not denoise: the maximum would only spread "
                                     "the noise, and the half-size output has no PSNR against the input"}};
}

// Not a filter of FILTERS.md but the composition of two of them, the classic
// blur-then-pool workload: maxpool(gaussian(I, sigma)). It exists so that
// fused and two-stage implementations are compared as one function.
FilterInfo gaussian_maxpool() {
    return {.name = "gaussian_maxpool",
            .summary = "gaussian (5x5, fixed point) then 2x2 max pooling",
            .params = {sigma_param()},
            .output_size = half_size,
            .min_side = 2,
            .reference = [](const Image &in, const ParamValues &p) {
                return reference::maxpool(reference::gaussian(in, p.at("sigma")));
            },
            .check_params = sigma_checks(),
            .work_per_sample = [](const ParamValues &) { return 25.0; },
            .reach = [](const ParamValues &) { return 2; },  // the Gaussian's, before pooling
            .gallery_noise = smoothing_noise(),
            .algorithms = gaussian_algorithms()};
}

FilterInfo nlmeans() {
    return {.name = "nlmeans",
            .summary = "non-local means denoising",
            .params = {{.name = "patch", .default_value = 3, .min = kNlmeansMinPatch, .max = kNlmeansMaxPatch,
                        .help = "patch radius p"},
                       {.name = "search", .default_value = 10, .min = kNlmeansMinSearch, .max = kNlmeansMaxSearch,
                        .help = "search radius s"},
                       // h > 0 in the contract; the suite's domain (contract_ranges.h) stops short of 0.
                       {.name = "h", .default_value = 10.0, .min = kNlmeansMinH, .max = kNlmeansMaxH, .integer = false,
                        .help = "filtering strength h"}},
            .exact = false,
            .reference = [](const Image &in, const ParamValues &p) {
                return reference::nlmeans(in, as_int(p, "patch"), as_int(p, "search"), p.at("h"));
            },
            // The defaults, small and zero patches, and a larger patch and search
            // window (kernels that specialise on p or stage the search window).
            .check_params = {{}, {{"patch", 1}, {"search", 3}, {"h", 5}}, {{"patch", 0}, {"search", 2}, {"h", 20}},
                             {{"patch", 5}, {"search", 12}, {"h", 15}}},
            .work_per_sample = [](const ParamValues &p) {
                return std::pow(2 * p.at("search") + 1, 2) * std::pow(2 * p.at("patch") + 1, 2);
            },
            // A patch around each candidate of the search window.
            .reach = [](const ParamValues &p) { return as_int(p, "patch") + as_int(p, "search"); },
            .gallery_noise = {.kind = "gaussian", .amount_from = "h",
                              .why = "additive Gaussian noise of sigma = h, the noise level NL-means is set for"},
            .algorithms = {{"direct", "a weight (patch distance, exponential) for every offset of the window"},
                           {"symmetric", "d^2(x; d) = d^2(x + d; -d): the weights of half the window, each used "
                                         "twice"},
                           {"symmetric_scatter", "symmetric, each weight scattered to its source and its target "
                                                 "(atomic adds)"},
                           {"gather_scatter", "symmetric, each weight gathered at its source and scattered to its "
                                              "target (atomic adds) by two reductions a schedule may fuse"}}};
}

std::vector<FilterInfo> make_filters() { return {box(), median(), gaussian(), maxpool(), gaussian_maxpool(), nlmeans()}; }

}  // namespace

const std::vector<FilterInfo> &all_filters() {
    static const std::vector<FilterInfo> filters = make_filters();
    return filters;
}

const FilterInfo &filter_info(const std::string &name) {
    for (auto &f : all_filters())
        if (f.name == name) return f;
    std::string known;
    for (auto &f : all_filters()) known += (known.empty() ? "" : ", ") + f.name;
    throw Error("unknown filter '" + name + "' (known: " + known + ")");
}

ParamValues FilterInfo::defaults() const {
    ParamValues values;
    for (auto &p : params) values[p.name] = p.default_value;
    return values;
}

std::string FilterInfo::tolerance() const {
    return exact ? "exact" : "every sample within 1 of the reference, at least 99% equal";
}

void FilterInfo::validate(const ParamValues &values) const {
    for (auto &[name, value] : values) {
        auto def = std::find_if(params.begin(), params.end(), [&](auto &p) { return p.name == name; });
        if (def == params.end()) {
            throw Error(fmt::format("{} has no parameter '{}'", this->name, name));
        }
        if (!def->accepts(value)) {
            throw Error(fmt::format("{}: {} must be {}, got {:g}", this->name, name, def->domain(), value));
        }
    }
}

ParamValues FilterInfo::parse_params(const std::vector<std::string> &assignments) const {
    ParamValues values = defaults();
    std::set<std::string> given;
    for (auto &text : assignments) {
        const auto eq = text.find('=');
        if (eq == std::string::npos || eq == 0) {
            throw Error("parameter '" + text + "' is not of the form NAME=VALUE");
        }
        const std::string name = text.substr(0, eq), value_text = text.substr(eq + 1);
        auto def = std::find_if(params.begin(), params.end(), [&](auto &p) { return p.name == name; });
        if (def == params.end()) throw Error(fmt::format("{} has no parameter '{}'", this->name, name));
        if (!given.insert(name).second) throw Error("parameter " + name + " is given twice");
        std::optional<double> value;
        if (def->integer) {
            if (auto i = parse_integer(value_text)) value = static_cast<double>(*i);
        } else {
            value = parse_decimal(value_text);
        }
        if (!value) {
            throw Error(fmt::format("parameter {}: '{}' is not {}", name, value_text,
                                    def->integer ? "an integer" : "a decimal number"));
        }
        validate({{name, *value}});
        values[name] = *value;
    }
    return values;
}

Comparison compare_to_reference(const FilterInfo &filter, const Image &expected, const Image &actual) {
    Comparison result;
    if (expected.width() != actual.width() || expected.height() != actual.height() ||
        expected.channels() != actual.channels()) {
        result.equal = false;
        result.mismatches = expected.size();
        result.max_difference = 255;
        return result;
    }
    for (int c = 0; c < expected.channels(); c++)
        for (int y = 0; y < expected.height(); y++)
            for (int x = 0; x < expected.width(); x++) {
                const int d = std::abs(int(expected.at(x, y, c)) - int(actual.at(x, y, c)));
                if (d == 0) continue;
                if (result.mismatches++ == 0) result.first_x = x, result.first_y = y, result.first_c = c;
                result.max_difference = std::max(result.max_difference, d);
            }
    if (filter.exact) {
        result.equal = result.mismatches == 0;
    } else {
        // FILTERS.md: every sample within 1, at least 99% equal.
        result.equal = result.max_difference <= 1 && result.mismatches * 100 <= expected.size();
    }
    return result;
}

double reference_work_per_sample(const FilterInfo &filter, const ParamValues &params) {
    return filter.work_per_sample(params);
}

std::string format_params(const ParamValues &values) {
    std::string s;
    for (auto &[name, value] : values) s += fmt::format("{}{}={:g}", s.empty() ? "" : " ", name, value);
    return s;
}

}  // namespace filterlab
