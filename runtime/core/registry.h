// The variant registry: every implementation of a filter, registered in one
// place (its own source file) and iterated by the CLI, the checks and the
// benchmark.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "shape_path.h"
#include "filters.h"
#include "image.h"
#include "source_span.h"
#include "variant_origin.h"

namespace filterlab {

enum class Backend { cpu, cuda, opencl };
enum class Kind { reference, halide, tvm, handwritten, peer };
// Origin (variant_origin.h): where a variant came from, a field, so that
// nothing parses a name; for a Halide variant the build says which.

const char *to_string(Backend backend);
const char *to_string(Kind kind);

// The values of one parameter a variant supports: a set, or a range. A
// parameter a variant does not mention is supported over the contract's domain.
struct ParamSupport {
    std::string name;
    std::vector<double> values;  // a set when non-empty
    double min = 0, max = 0;     // otherwise the inclusive range
    bool contains(double value) const;
    std::string describe() const;
};

// "radius=1..15", "size=3,5,7", several joined by ';'. Empty: no restriction.
std::vector<ParamSupport> parse_supports(const std::string &spec);

// Whether `support` is the whole domain `filter`'s contract gives its parameter.
bool restates_contract(const ParamSupport &support, const FilterInfo &filter);

// One axis of a schedule's space, as its registration declares it (Halide's
// AXES("tile_x=16,[32],64"), TVM's axes=; the build's variants.json).
struct ScheduleAxis {
    std::string name;
    std::vector<int> values;
    int default_value = 0;
};
// One point of a schedule's space: each axis with its value, in the axes' order.
using SchedulePoint = std::vector<std::pair<std::string, int>>;

// One library a Halide or TVM variant calls, with every name the build gave it
// (filterlab_build/library_names.py, carried by the build's variants.json and
// the variant's registration as data, never composed again): its name (its
// loop nest <name>.stmt and its kernels' resources are named after it), the
// archive it is in as installed (lib/filterlab/<file>; a TVM variant's
// launchers share one), the header declaring its entry point as installed
// (under include/), and the entry point (a Halide pipeline,
// filterlab::halide::<name>, or a TVM launcher, filterlab_<name>).
struct VariantLibrary {
    std::string name, file, header, entry_point;
};

// A variant computes the filter from `in` into `out`, both planar. For the
// cpu backend the views are host memory; for cuda they are device memory
// whose rows start on 16-byte boundaries; for opencl `data` is the cl_mem of
// the image (opencl::DeviceImage), rows laid out as for cuda. Failures throw Error.
using RunFunction = std::function<void(const PlanarView &in, const PlanarView &out, const ParamValues &)>;

struct Variant {
    std::string filter, name;
    Backend backend = Backend::cpu;
    Kind kind = Kind::reference;
    std::vector<ParamSupport> supports;
    RunFunction run;
    // For variants that depend on something found only at run time (a peer
    // library): empty when usable, else why not. Unset: always usable.
    std::function<std::string()> unavailable;
    // False only for peers documented to compute another function (another
    // rounding, other weights, another formula): their differences are
    // reported, not failed. Everything else must match the contract.
    bool computes_contract = true;
    // Where it came from. Set by the build for Halide and TVM variants
    // (with_build_facts); for the others register_variant derives it from
    // `kind`. (After the fields above, which registrations give in order.)
    Origin origin = Origin::reference;
    // Halide and TVM schedules: their registration (a FILTERLAB_SCHEDULE
    // function, a TVM schedule's body), as the build read it
    // (filterlab_build/manifest.py; the build's variants.json).
    SourceSpan source;
    // Halide and TVM schedules: their libraries, with the names the build gave
    // them (VariantLibrary).
    std::vector<VariantLibrary> libraries;
    // Schedules that declare a space (AXES, TVM's axes=, in their registration): its
    // axes, for the schedule's default and each point of its sweep; and the
    // point this variant was built at, a value for every axis (its default,
    // its sweep point, or the point a frozen schedule fixes).
    std::vector<ScheduleAxis> axes;
    SchedulePoint point;
    // One of its filter's algorithms (FilterInfo::algorithms); left empty at
    // registration, the filter's first.
    std::string algorithm;
    // Halide and TVM CUDA variants: the image shapes the build also compiled
    // them for (FILTERLAB_SHAPES), each a path a call of that shape takes;
    // whether it has the aligned class's path (kAlignedClass); and the shapes
    // (or the class) Halide refused for one of its libraries, with why (the
    // generic path serves them).
    std::vector<ImageShape> exact_shapes;
    bool aligned_path = false;
    std::vector<std::pair<ImageShape, std::string>> refused_shapes;
    // A handwritten OpenCL kernel: the CUDA variant it ports (porting()).
    std::string ports;

    // Empty when the variant can run here (its library, a GPU), else why not.
    std::string why_unavailable() const;
    // Images a variant cannot take at some parameters (an autoscheduled
    // pipeline whose root-level planes outgrow Halide's 32-bit buffers): why
    // not, or empty; null where it takes every image the contract allows.
    std::function<std::string(int width, int height, int channels, const ParamValues &)> image_limit;

    // Empty when the variant takes these values, else why not.
    std::string unsupported_reason(const ParamValues &values) const;
    // The same, and an image of this size too (image_limit).
    std::string unsupported_reason(const ParamValues &values, int width, int height, int channels) const;
    // Per parameter of the contract (for `list --json`): its default, whether
    // it is an integer, and the values or min/max this variant takes, the
    // integers as JSON integers.
    nlohmann::json params_json() const;
};

void register_variant(Variant variant);  // a name registered twice is a programming error: aborts
bool is_registered(const std::string &filter, const std::string &name);
// Ordered by filter, then registration order. The registry is a leaf: it holds
// what was registered; loading the plugins (plugins.h) is the caller's job,
// done once at the start of main.
const std::vector<Variant> &all_variants();
const Variant &find_variant(const std::string &filter, const std::string &name);  // throws Error

// What the build knows of a Halide or TVM schedule (cmake/halide_variant.cpp.in,
// cmake/tvm_variant.cpp.in, from the build's variants.json).
inline Variant with_build_facts(Variant variant, Origin origin, SourceSpan source, std::vector<VariantLibrary> libraries,
                                std::vector<ScheduleAxis> axes, SchedulePoint point, std::string algorithm) {
    variant.origin = origin;
    variant.source = std::move(source);
    variant.libraries = std::move(libraries);
    variant.axes = std::move(axes);
    variant.point = std::move(point);
    variant.algorithm = std::move(algorithm);
    return variant;
}

// An OpenCL kernel that ports the CUDA variant `original` (a handwritten
// kernel's registration): the report compares the two.
inline Variant porting(Variant variant, std::string original) {
    variant.ports = std::move(original);
    return variant;
}

// The CUDA variant an OpenCL variant is the twin of: the one it ports
// (handwritten), or the same schedule at the same point built for CUDA
// (Halide); "" when it has none.
std::string cuda_twin(const Variant &opencl_variant);

// A variant of algorithm `algorithm` (a handwritten kernel's registration).
inline Variant with_algorithm(Variant variant, std::string algorithm) {
    variant.algorithm = std::move(algorithm);
    return variant;
}

// Which of a DSL variant's paths a call on an image of this shape takes in
// the harness (which pitches device rows to 64 bytes): "exact" (compiled for
// that shape), "aligned" (the aligned class's) or "generic" (every shape),
// up to the thread's PathCeilingScope (shape_path.h); "" for a
// variant that is not a DSL's (handwritten kernels, peers, the reference).
std::string shape_path(const Variant &variant, ImageShape image);

// The paths under the one shape_path says, each a call on `image` can take
// under a lower PathCeilingScope (shape_path.h), in order: the aligned
// class's where the image is in it, then the generic one. Empty for a
// variant on its generic path and for one that is not a DSL's.
std::vector<ShapePath> more_general_paths(const Variant &variant, ImageShape image);

// A TVM variant's shape paths: every library's launcher takes each of these
// shapes' functions, the aligned class's among them (filterlab_build/tvm_generate.py
// --shapes; TVM refuses none, or the build fails).
inline Variant with_exact_shapes(Variant variant, std::vector<ImageShape> shapes) {
    variant.aligned_path = take_aligned_class(shapes);
    variant.exact_shapes = std::move(shapes);
    return variant;
}

struct VariantRegistration {
    explicit VariantRegistration(Variant variant) { register_variant(std::move(variant)); }
};

}  // namespace filterlab
