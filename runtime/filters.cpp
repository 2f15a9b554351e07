#include "filters.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <limits>
#include <optional>
#include <set>

#include "error.h"
#include "numbers.h"
#include "reference.h"

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

namespace {

int as_int(const ParamValues &p, const char *name) { return static_cast<int>(p.at(name)); }

std::pair<int, int> same_size(int w, int h) { return {w, h}; }

std::vector<FilterInfo> make_filters() {
    std::vector<FilterInfo> filters;
    filters.push_back({"box", "mean of the (2r+1)^2 window, rounded half up",
                       {{"radius", 1, 1, 15, true, false, {}, "window radius r; the window is (2r+1)^2"}},
                       true, same_size, 1,
                       [](const Image &in, const ParamValues &p) { return reference::box(in, as_int(p, "radius")); }});
    filters.push_back({"median", "exact median of the k x k window",
                       {{"size", 3, 3, 7, true, false, {3, 5, 7}, "window size k"}},
                       true, same_size, 1,
                       [](const Image &in, const ParamValues &p) { return reference::median(in, as_int(p, "size")); }});
    filters.push_back({"gaussian", "5x5 Gaussian in 8.8 fixed point",
                       // sigma > 0 in the contract; below 1e-3 2 sigma^2 may underflow, so the
                       // suite refuses it (the weights are [0, 0, 256, 0, 0] long before).
                       {{"sigma", 1.0, 1e-3, 1000, false, false, {}, "standard deviation of the weights"}},
                       true, same_size, 1,
                       [](const Image &in, const ParamValues &p) { return reference::gaussian(in, p.at("sigma")); }});
    filters.push_back({"maxpool", "2x2 max pooling, stride 2", {}, true,
                       [](int w, int h) { return std::pair{w / 2, h / 2}; }, 2,
                       [](const Image &in, const ParamValues &) { return reference::maxpool(in); }});
    // Not a filter of FILTERS.md but the composition of two of them, the
    // classic blur-then-pool workload: maxpool(gaussian(I, sigma)). It exists
    // so that fused and two-stage implementations are compared as one function.
    filters.push_back({"gaussian_maxpool", "gaussian (5x5, fixed point) then 2x2 max pooling",
                       {{"sigma", 1.0, 1e-3, 1000, false, false, {}, "standard deviation of the weights"}},
                       true, [](int w, int h) { return std::pair{w / 2, h / 2}; }, 2,
                       [](const Image &in, const ParamValues &p) {
                           return reference::maxpool(reference::gaussian(in, p.at("sigma")));
                       }});
    filters.push_back({"nlmeans", "non-local means denoising",
                       {{"patch", 3, 0, 10, true, false, {}, "patch radius p"},
                        {"search", 10, 1, 30, true, false, {}, "search radius s"},
                        // h > 0 in the contract; below 1e-3 h^2 may underflow (0/0).
                        {"h", 10.0, 1e-3, 1000, false, false, {}, "filtering strength h"}},
                       false, same_size, 1,
                       [](const Image &in, const ParamValues &p) {
                           return reference::nlmeans(in, as_int(p, "patch"), as_int(p, "search"), p.at("h"));
                       }});
    return filters;
}

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

double reference_work_per_sample(const FilterInfo &filter, const ParamValues &p) {
    auto get = [&](const char *name) { return p.count(name) ? p.at(name) : 0.0; };
    if (filter.name == "box") return std::pow(2 * get("radius") + 1, 2);
    if (filter.name == "median") return std::pow(get("size"), 2) * 4;
    if (filter.name == "gaussian" || filter.name == "gaussian_maxpool") return 25;
    if (filter.name == "nlmeans") return std::pow(2 * get("search") + 1, 2) * std::pow(2 * get("patch") + 1, 2);
    return 4;
}

std::string format_params(const ParamValues &values) {
    std::string s;
    for (auto &[name, value] : values) s += fmt::format("{}{}={:g}", s.empty() ? "" : " ", name, value);
    return s;
}

}  // namespace filterlab
