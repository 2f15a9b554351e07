#include "registry.h"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cuda_support.h"
#include "error.h"
#include "opencl_support.h"
#include "shape_path.h"

namespace filterlab {

const char *to_string(Backend backend) {
    switch (backend) {
    case Backend::cpu: return "cpu";
    case Backend::cuda: return "cuda";
    case Backend::opencl: return "opencl";
    }
    return "?";
}

const char *to_string(Kind kind) {
    switch (kind) {
    case Kind::reference: return "reference";
    case Kind::halide: return "halide";
    case Kind::tvm: return "tvm";
    case Kind::handwritten: return "handwritten";
    case Kind::peer: return "peer";
    }
    return "?";
}

std::string shape_path(const Variant &variant, ImageShape image) {
    if (variant.kind != Kind::halide && variant.kind != Kind::tvm) return "";
    return to_string(path_for(variant.exact_shapes, variant.aligned_path, image));
}

std::vector<ShapePath> more_general_paths(const Variant &variant, ImageShape image) {
    std::vector<ShapePath> out;
    if (variant.kind != Kind::halide && variant.kind != Kind::tvm) return out;
    ShapePath last = path_for(variant.exact_shapes, variant.aligned_path, image);
    for (ShapePath ceiling : {ShapePath::aligned, ShapePath::generic}) {
        const PathCeilingScope scope(ceiling);
        const ShapePath path = path_for(variant.exact_shapes, variant.aligned_path, image);
        if (path != last) out.push_back(path);
        last = path;
    }
    return out;
}

bool ParamSupport::contains(double value) const {
    if (!values.empty()) return std::find(values.begin(), values.end(), value) != values.end();
    return value >= min && value <= max;
}

std::string ParamSupport::describe() const {
    if (values.empty()) return fmt::format("{} in {:g}..{:g}", name, min, max);
    std::string s = name + " in {";
    for (std::size_t i = 0; i < values.size(); i++) s += fmt::format("{}{:g}", i ? "," : "", values[i]);
    return s + "}";
}

std::vector<ParamSupport> parse_supports(const std::string &spec) {
    std::vector<ParamSupport> result;
    std::stringstream items(spec);
    std::string item;
    while (std::getline(items, item, ';')) {
        if (item.empty()) continue;
        const auto eq = item.find('=');
        if (eq == std::string::npos) throw std::invalid_argument("bad parameter support '" + item + "'");
        ParamSupport support;
        support.name = item.substr(0, eq);
        const std::string body = item.substr(eq + 1);
        if (const auto dots = body.find(".."); dots != std::string::npos) {
            support.min = std::stod(body.substr(0, dots));
            support.max = std::stod(body.substr(dots + 2));
        } else {
            std::stringstream values(body);
            std::string value;
            while (std::getline(values, value, ',')) support.values.push_back(std::stod(value));
        }
        result.push_back(support);
    }
    return result;
}

std::string Variant::why_unavailable() const {
    if (backend == Backend::cuda && !cuda::gpu_info().available) return "no GPU: " + cuda::gpu_info().why_not;
    if (backend == Backend::opencl && !opencl::device_info().available) {
        return "no OpenCL device: " + opencl::device_info().why_not;
    }
    return unavailable ? unavailable() : "";
}

std::string Variant::unsupported_reason(const ParamValues &values) const {
    for (auto &s : supports) {
        auto it = values.find(s.name);
        if (it != values.end() && !s.contains(it->second)) {
            return fmt::format("{}/{} supports {} only, not {}={:g}", filter, name, s.describe(), s.name, it->second);
        }
    }
    return "";
}

std::string Variant::unsupported_reason(const ParamValues &values, int width, int height, int channels) const {
    if (std::string why = unsupported_reason(values); !why.empty()) return why;
    if (!image_limit) return "";
    const std::string why = image_limit(width, height, channels, values);
    return why.empty() ? "" : fmt::format("{}/{}: {}", filter, name, why);
}

namespace {

// A parameter value as JSON: integers as integers.
nlohmann::json param_value(const ParamDef &def, double value) {
    return def.integer ? nlohmann::json(static_cast<long long>(value)) : nlohmann::json(value);
}

}  // namespace

nlohmann::json Variant::params_json() const {
    nlohmann::json params = nlohmann::json::object();
    for (const ParamDef &def : filter_info(filter).params) {
        nlohmann::json p = {{"default", param_value(def, def.default_value)}, {"integer", def.integer}};
        auto s = std::find_if(supports.begin(), supports.end(), [&](auto &x) { return x.name == def.name; });
        const bool restricted = s != supports.end();
        const std::vector<double> *values = restricted && !s->values.empty()    ? &s->values
                                            : !restricted && !def.allowed.empty() ? &def.allowed
                                                                                  : nullptr;
        if (values) {
            p["values"] = nlohmann::json::array();
            for (double x : *values) p["values"].push_back(param_value(def, x));
        } else {
            p["min"] = param_value(def, restricted ? s->min : def.min);
            p["max"] = param_value(def, restricted ? s->max : def.max);
            p["min_exclusive"] = !restricted && def.min_exclusive;
        }
        params[def.name] = p;
    }
    return params;
}

bool restates_contract(const ParamSupport &support, const FilterInfo &filter) {
    for (const ParamDef &d : filter.params) {
        if (d.name != support.name) continue;
        return d.allowed.empty() ? support.values.empty() && support.min <= d.min && support.max >= d.max
                                 : support.values == d.allowed;
    }
    return false;
}

namespace {
std::vector<Variant> &registry() {
    static std::vector<Variant> variants;
    return variants;
}

// A support that is the contract's whole domain restates it: a registration
// names only what it restricts (the contract is said once, in filters.cpp).
void refuse_restated_contract(const Variant &variant, const FilterInfo &filter) {
    for (const ParamSupport &s : variant.supports) {
        if (!restates_contract(s, filter)) continue;
        std::fprintf(stderr, "filterlab: variant %s/%s: its support %s is the contract's whole domain: leave it out\n",
                     variant.filter.c_str(), variant.name.c_str(), s.describe().c_str());
        std::abort();
    }
}

}  // namespace

std::string cuda_twin(const Variant &v) {
    if (v.backend != Backend::opencl) return "";
    if (!v.ports.empty()) return v.ports;
    if (v.kind != Kind::halide) return "";
    for (const Variant &other : all_variants())
        if (other.filter == v.filter && other.backend == Backend::cuda && other.kind == Kind::halide &&
            other.source.file == v.source.file && other.source.first_line == v.source.first_line &&
            other.point == v.point && other.origin == v.origin)
            return other.name;
    return "";
}

void register_variant(Variant variant) {
    auto &variants = registry();
    for (auto &v : variants) {
        if (v.filter == variant.filter && v.name == variant.name) {
            std::fprintf(stderr, "filterlab: variant %s/%s registered twice\n", v.filter.c_str(), v.name.c_str());
            std::abort();
        }
    }
    for (const FilterInfo &f : all_filters()) {
        if (f.name != variant.filter) continue;
        refuse_restated_contract(variant, f);
        if (variant.algorithm.empty()) variant.algorithm = f.algorithms.front().first;
        if (std::none_of(f.algorithms.begin(), f.algorithms.end(), [&](auto &a) { return a.first == variant.algorithm; })) {
            std::fprintf(stderr, "filterlab: variant %s/%s: %s has no algorithm '%s'\n", variant.filter.c_str(),
                         variant.name.c_str(), f.name.c_str(), variant.algorithm.c_str());
            std::abort();
        }
    }
    if (variant.kind == Kind::handwritten) variant.origin = Origin::handwritten;
    if (variant.kind == Kind::peer) variant.origin = Origin::peer;
    variants.push_back(std::move(variant));
    std::stable_sort(variants.begin(), variants.end(), [](const Variant &a, const Variant &b) {
        auto rank = [](const std::string &f) {
            auto &all = all_filters();
            return std::find_if(all.begin(), all.end(), [&](auto &i) { return i.name == f; }) - all.begin();
        };
        if (a.filter != b.filter) return rank(a.filter) < rank(b.filter);
        if (a.kind != b.kind) return a.kind < b.kind;
        if (a.backend != b.backend) return a.backend < b.backend;
        return a.name < b.name;
    });
}

bool is_registered(const std::string &filter, const std::string &name) {
    return std::any_of(registry().begin(), registry().end(),
                       [&](const Variant &v) { return v.filter == filter && v.name == name; });
}

const std::vector<Variant> &all_variants() { return registry(); }

const Variant &find_variant(const std::string &filter, const std::string &name) {
    filter_info(filter);  // an unknown filter gets its own message
    std::string known;
    for (auto &v : all_variants()) {
        if (v.filter != filter) continue;
        if (v.name == name) return v;
        known += (known.empty() ? "" : ", ") + v.name;
    }
    throw Error("unknown variant '" + name + "' of " + filter + " (known: " + known + ")");
}

}  // namespace filterlab
