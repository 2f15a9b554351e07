// One library of a schedule (Halide's or TVM's) among those compiled for
// fixed values of some parameters (the median's size), and the choice
// between them at run time.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "error.h"
#include "filters.h"
#include "image.h"
#include "shape_path.h"

namespace filterlab {

// The same library compiled for one image shape (the build's
// FILTERLAB_SHAPES: every extent known) or for the aligned class
// (kAlignedClass: whole 64-pixel groups a row), and its words twin where it
// has one; for each, null where Halide took the shape, else why it did not
// (the generator's report: generators/word_view.h, fix_shape), and the
// library is then generic code, never taken.
template <typename Function>
struct ShapeTwin {
    ImageShape shape;
    Function function;
    Function words = nullptr;
    const char *refused = nullptr;
    const char *words_refused = nullptr;
    bool exact() const { return !refused && !words_refused; }
};

// One library of a schedule: the parameter values it was compiled for (empty
// when all are run-time parameters) and its entry point; for a schedule that
// also writes 32-bit words (WRITES("words")), the entry point of that twin;
// its twins compiled for fixed image shapes and the aligned class, which a
// call of that shape or class takes.
template <typename Function>
struct CompiledPipeline {
    ParamValues fixed;
    Function function;
    Function words = nullptr;
    std::vector<ShapeTwin<Function>> shapes;
};

// The library compiled for these parameters (the harness has already refused
// values the variant does not support).
// `words_out`: the output is given as 32-bit words (the binding chose the
// words twin, which a library without one never is). `image`: the call's
// image shape, `pitched` whether its strides fit the aligned class: the twin
// of the path it takes (path_for) where the library has one.
template <typename Function>
Function select_pipeline(const std::vector<CompiledPipeline<Function>> &compiled, const ParamValues &params,
                         bool words_out = false, ImageShape image = {}, bool pitched = false) {
    for (auto &c : compiled) {
        bool match = true;
        for (auto &[name, value] : c.fixed) match = match && params.at(name) == value;
        if (!match) continue;
        if (words_out && !c.words) throw Error("no library writing words compiled for " + format_params(params));
        std::vector<ImageShape> exact;
        bool aligned = false;
        auto usable = [&](const ShapeTwin<Function> &twin) { return twin.exact() && (!words_out || twin.words); };
        for (auto &twin : c.shapes) {
            if (!usable(twin)) continue;
            if (twin.shape == kAlignedClass) aligned = true;
            else exact.push_back(twin.shape);
        }
        const ShapePath path = path_for(exact, aligned, image, pitched);
        const ImageShape wanted = path == ShapePath::exact ? image : kAlignedClass;
        for (auto &twin : c.shapes)
            if (path != ShapePath::generic && usable(twin) && twin.shape == wanted)
                return words_out ? twin.words : twin.function;
        return words_out ? c.words : c.function;
    }
    throw Error("no library compiled for " + format_params(params));
}

// The shapes every library of a variant was compiled for (Variant::exact_shapes;
// the aligned class among them where every library took it: Variant::aligned_path),
// and those Halide refused for one of them, with why (Variant::refused_shapes).
template <typename Function>
std::vector<ImageShape> exact_shapes(const std::vector<CompiledPipeline<Function>> &compiled) {
    std::vector<ImageShape> out;
    if (compiled.empty()) return out;
    for (const auto &twin : compiled.front().shapes) {
        bool all = true;
        for (const auto &c : compiled)
            for (const auto &t : c.shapes) all = all && (t.shape != twin.shape || t.exact());
        if (all) out.push_back(twin.shape);
    }
    return out;
}

template <typename Function>
std::vector<std::pair<ImageShape, std::string>> refused_shapes(const std::vector<CompiledPipeline<Function>> &compiled) {
    std::vector<std::pair<ImageShape, std::string>> out;
    for (const auto &c : compiled)
        for (const auto &t : c.shapes)
            if (!t.exact() && std::none_of(out.begin(), out.end(), [&](auto &o) { return o.first == t.shape; }))
                out.emplace_back(t.shape, t.refused ? t.refused : t.words_refused);
    return out;
}

}  // namespace filterlab
