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

namespace filterlab {

// The same library compiled for one image shape (the build's
// FILTERLAB_SHAPES: every extent known), and its words twin where it has one;
// for each, null where Halide took the shape, else why it did not (the
// generator's report: generators/word_view.h, fix_shape), and the library is
// then generic code, never taken.
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
// its twins compiled for fixed image shapes, which a call of that shape takes.
template <typename Function>
struct CompiledPipeline {
    ParamValues fixed;
    Function function;
    Function words = nullptr;
    std::vector<ShapeTwin<Function>> shapes;
};

// Whether calls on this thread take every DSL variant's generic path, even
// where a library was compiled for the image's shape (`bench --paths both`
// times both paths of a variant at the same image).
inline thread_local bool generic_path_forced = false;

// Forces the generic path on this thread while it lives.
class GenericPathScope {
public:
    GenericPathScope() : previous_(std::exchange(generic_path_forced, true)) {}
    ~GenericPathScope() { generic_path_forced = previous_; }
    GenericPathScope(const GenericPathScope &) = delete;
    GenericPathScope &operator=(const GenericPathScope &) = delete;

private:
    bool previous_;
};

// The library compiled for these parameters (the harness has already refused
// values the variant does not support).
// `words_out`: the output is given as 32-bit words (the binding chose the
// words twin, which a library without one never is). `image`: the call's
// image shape, whose twin is taken where the library has one.
template <typename Function>
Function select_pipeline(const std::vector<CompiledPipeline<Function>> &compiled, const ParamValues &params,
                         bool words_out = false, ImageShape image = {}) {
    for (auto &c : compiled) {
        bool match = true;
        for (auto &[name, value] : c.fixed) match = match && params.at(name) == value;
        if (!match) continue;
        if (words_out && !c.words) throw Error("no library writing words compiled for " + format_params(params));
        for (auto &twin : c.shapes)
            if (!generic_path_forced && twin.exact() && twin.shape == image && (!words_out || twin.words))
                return words_out ? twin.words : twin.function;
        return words_out ? c.words : c.function;
    }
    throw Error("no library compiled for " + format_params(params));
}

// The shapes every library of a variant was compiled for (Variant::exact_shapes),
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
