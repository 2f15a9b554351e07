// Named schedules for a filter's generator.
//
// A schedule is written once, in schedules/<filter>/, as
//
//     FILTERLAB_SCHEDULE(box, cpu, tiled, "radius=1..15") { ... }
//
// which defines the function and registers it under "cpu_tiled" for the box
// generator. The build (cmake/FilterLab.cmake) scans the same line to compile
// one static library per schedule and to register it as a variant, with the
// quoted string as the parameter values it supports: that line is the only
// registration a new schedule needs.
//
// A schedule may declare the axes of its space, each with its values and the
// default in brackets, as a fifth argument:
//
//     FILTERLAB_SCHEDULE(box, cuda, tile, "radius=1..15", "tile_x=16,[32],64 tile_y=2,4,[8],16") {
//         p.output.gpu_tile(..., point["tile_x"], point["tile_y"], ...);
//
// The default build compiles the default point; a sweep build
// (-DFILTERLAB_SWEEPS) compiles every point as its own variant,
// "cuda_tile[tile_x=64+tile_y=4]". A point found best is frozen as a named
// schedule by one line,
//
//     FILTERLAB_FROZEN(box, cuda, tile_64x4, tile, "tile_x=64,tile_y=4");
//
// A filter may have several algorithms (generators/<filter>.h says which). A
// schedule of any but the first names its algorithm in its registration,
//
//     FILTERLAB_SCHEDULE_OF(box, running_sums, cuda, sums_strips, "radius=1..15") { ... }
//
// and the generator defines that algorithm before applying the schedule.
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "Halide.h"

namespace filterlab::schedules {

// One point of a schedule's space: a value for each declared axis.
class Point {
public:
    // `axes` as declared ("tile_x=16,[32],64 tile_y=2,[8]"); `chosen` overrides
    // some of them ("tile_x=64,tile_y=2"), each value one the axis declares.
    Point(const std::string &axes, const std::string &chosen);
    // The value of a declared axis; asking for an undeclared one is an error.
    int operator[](const std::string &axis) const;

private:
    struct Axis {
        std::string name;
        std::vector<int> values;
        int value = 0;
    };
    std::vector<Axis> axes_;
    const Axis *find(const std::string &name) const;
};

inline const Point::Axis *Point::find(const std::string &name) const {
    for (const Axis &a : axes_)
        if (a.name == name) return &a;
    return nullptr;
}

inline Point::Point(const std::string &axes, const std::string &chosen) {
    // Declared: space-separated "name=v,[d],v".
    std::size_t at = 0;
    while (at < axes.size()) {
        const std::size_t end = std::min(axes.find(' ', at), axes.size());
        const std::string item = axes.substr(at, end - at);
        at = end + 1;
        if (item.empty()) continue;
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos) throw std::invalid_argument("axis '" + item + "' has no values");
        Axis axis{item.substr(0, eq), {}, 0};
        bool has_default = false;
        std::string values = item.substr(eq + 1) + ",";
        for (std::size_t v = 0, comma; (comma = values.find(',', v)) != std::string::npos; v = comma + 1) {
            std::string text = values.substr(v, comma - v);
            const bool is_default = text.size() > 2 && text.front() == '[' && text.back() == ']';
            if (is_default) text = text.substr(1, text.size() - 2);
            axis.values.push_back(std::stoi(text));
            if (is_default) axis.value = axis.values.back(), has_default = true;
        }
        if (!has_default) throw std::invalid_argument("axis '" + axis.name + "' marks no default [value]");
        axes_.push_back(axis);
    }
    // Chosen: comma-separated "name=value"; on a generator's command line,
    // which takes neither '=' nor ',' in a value, "name:value+name:value".
    std::string list = chosen.empty() ? "" : chosen + ",";
    std::replace(list.begin(), list.end(), ':', '=');
    std::replace(list.begin(), list.end(), '+', ',');
    for (std::size_t v = 0, comma; (comma = list.find(',', v)) != std::string::npos; v = comma + 1) {
        const std::string item = list.substr(v, comma - v);
        const std::size_t eq = item.find('=');
        Axis *axis = eq == std::string::npos ? nullptr : const_cast<Axis *>(find(item.substr(0, eq)));
        if (!axis) throw std::invalid_argument("point '" + chosen + "': '" + item + "' names no declared axis");
        const int value = std::stoi(item.substr(eq + 1));
        if (std::find(axis->values.begin(), axis->values.end(), value) == axis->values.end())
            throw std::invalid_argument("point '" + chosen + "': " + axis->name + " does not declare " +
                                        std::to_string(value));
        axis->value = value;
    }
}

inline int Point::operator[](const std::string &axis) const {
    const Axis *a = find(axis);
    if (!a) throw std::invalid_argument("the schedule reads axis '" + axis + "', which it does not declare");
    return a->value;
}

template <typename Pipeline>
using ScheduleFunction = std::function<void(Pipeline &, const Halide::Target &, const Point &)>;

template <typename Pipeline>
struct Schedule {
    ScheduleFunction<Pipeline> function;
    std::string axes;    // as declared; empty: a space of one point
    std::string base;    // a frozen schedule: the key of the schedule it fixes
    std::string frozen;  // and the point it fixes there
    std::string algorithm;  // empty: the filter's first (its generator's default)
};

template <typename Pipeline>
std::map<std::string, Schedule<Pipeline>> &registry() {
    static std::map<std::string, Schedule<Pipeline>> schedules;
    return schedules;
}

template <typename Pipeline>
struct Registrar {
    Registrar(const std::string &key, ScheduleFunction<Pipeline> f, std::string axes, std::string algorithm = "") {
        registry<Pipeline>().emplace(key, Schedule<Pipeline>{std::move(f), std::move(axes), "", "", std::move(algorithm)});
    }
    // A frozen point of the schedule `base`: looked up when applied, so the
    // order of static initialisation does not matter.
    Registrar(const std::string &key, const std::string &base, std::string point) {
        auto apply_base = [base](Pipeline &p, const Halide::Target &t, const Point &frozen_point) {
            registry<Pipeline>().at(base).function(p, t, frozen_point);
        };
        registry<Pipeline>().emplace(key, Schedule<Pipeline>{apply_base, "", base, std::move(point)});
    }
};

template <typename Pipeline>
const Schedule<Pipeline> &find(const std::string &key) {
    auto &all = registry<Pipeline>();
    auto it = all.find(key);
    if (it == all.end()) {
        std::string known;
        for (auto &[name, _] : all) known += " " + name;
        throw std::invalid_argument("unknown schedule '" + key + "'; known:" + known);
    }
    return it->second;
}

// The algorithm the schedule named `key` schedules (a frozen one: its
// base's); `fallback` (the filter's first) for an autoscheduler (empty key)
// and for a schedule that names none.
template <typename Pipeline>
std::string algorithm_of(const std::string &key, const std::string &fallback) {
    if (key.empty()) return fallback;
    const Schedule<Pipeline> *s = &find<Pipeline>(key);
    if (!s->base.empty()) s = &find<Pipeline>(s->base);
    return s->algorithm.empty() ? fallback : s->algorithm;
}

// Applies the schedule named `key` ("<backend>_<name>") at `point` (empty:
// its default) and checks that the target fits the backend, so a GPU schedule
// is never built for a CPU target. A "cuda" schedule is written with Halide's
// gpu_* directives, which every GPU API takes: the build compiles it for CUDA
// and for OpenCL alike. An empty key leaves the pipeline unscheduled, for an
// autoscheduler to schedule (and only then).
template <typename Pipeline>
void apply(const std::string &key, const std::string &point, Pipeline &p, const Halide::Target &target,
           bool autoscheduled) {
    if (key.empty() && autoscheduled) return;
    if (autoscheduled) throw std::invalid_argument("schedule '" + key + "' given with an autoscheduler");
    const Schedule<Pipeline> &schedule = find<Pipeline>(key);
    const bool wants_gpu = key.rfind("cuda_", 0) == 0;
    if (wants_gpu != target.has_gpu_feature()) {
        throw std::invalid_argument("schedule '" + key + "' does not match target " + target.to_string());
    }
    if (!schedule.frozen.empty()) {
        if (!point.empty()) throw std::invalid_argument("schedule '" + key + "' is frozen at one point");
        const std::string &base_axes = find<Pipeline>(schedule.base).axes;
        schedule.function(p, target, Point(base_axes, schedule.frozen));
        return;
    }
    schedule.function(p, target, Point(schedule.axes, point));
}

}  // namespace filterlab::schedules

#define FILTERLAB_SCHEDULE_CAT2(a, b) a##b
#define FILTERLAB_SCHEDULE_CAT(a, b) FILTERLAB_SCHEDULE_CAT2(a, b)

// FILTER names the pipeline struct `<FILTER>_pipeline::Pipeline`; SUPPORTS is
// read by CMake only (the parameter values this schedule accepts); the
// optional fifth argument declares the axes (see above).
#define FILTERLAB_SCHEDULE(FILTER, BACKEND, NAME, SUPPORTS, ...)                                              \
    static void schedule_##BACKEND##_##NAME(filterlab::FILTER##_pipeline::Pipeline &p,                        \
                                            const Halide::Target &target,                                      \
                                            const filterlab::schedules::Point &point);                         \
    static const filterlab::schedules::Registrar<filterlab::FILTER##_pipeline::Pipeline>                      \
        FILTERLAB_SCHEDULE_CAT(registrar_, __LINE__){#BACKEND "_" #NAME, schedule_##BACKEND##_##NAME,          \
                                                     std::string{"" __VA_ARGS__}};                             \
    static void schedule_##BACKEND##_##NAME([[maybe_unused]] filterlab::FILTER##_pipeline::Pipeline &p,       \
                                            [[maybe_unused]] const Halide::Target &target,                     \
                                            [[maybe_unused]] const filterlab::schedules::Point &point)

// A schedule of the filter's algorithm ALGORITHM (not its first).
#define FILTERLAB_SCHEDULE_OF(FILTER, ALGORITHM, BACKEND, NAME, SUPPORTS, ...)                                \
    static void schedule_##BACKEND##_##NAME(filterlab::FILTER##_pipeline::Pipeline &p,                        \
                                            const Halide::Target &target,                                      \
                                            const filterlab::schedules::Point &point);                         \
    static const filterlab::schedules::Registrar<filterlab::FILTER##_pipeline::Pipeline>                      \
        FILTERLAB_SCHEDULE_CAT(registrar_, __LINE__){#BACKEND "_" #NAME, schedule_##BACKEND##_##NAME,          \
                                                     std::string{"" __VA_ARGS__}, #ALGORITHM};                 \
    static void schedule_##BACKEND##_##NAME([[maybe_unused]] filterlab::FILTER##_pipeline::Pipeline &p,       \
                                            [[maybe_unused]] const Halide::Target &target,                     \
                                            [[maybe_unused]] const filterlab::schedules::Point &point)

// A named schedule that is schedule BASE at one point of its space.
#define FILTERLAB_FROZEN(FILTER, BACKEND, NAME, BASE, POINT)                                                  \
    static const filterlab::schedules::Registrar<filterlab::FILTER##_pipeline::Pipeline>                      \
        FILTERLAB_SCHEDULE_CAT(registrar_, __LINE__) {                                                         \
        #BACKEND "_" #NAME, #BACKEND "_" #BASE, POINT                                                          \
    }

// A schedule an autoscheduler wrote (schedules/<filter>/auto/, frozen by
// scripts/autoschedule.py): APPLY is the function Halide emitted, which
// finds the stages by their place in the pipeline.
#define FILTERLAB_AUTOSCHEDULED(FILTER, KEY, APPLY)                                                           \
    static const filterlab::schedules::Registrar<filterlab::FILTER##_pipeline::Pipeline>                      \
        FILTERLAB_SCHEDULE_CAT(registrar_, __LINE__) {                                                         \
        KEY,                                                                                                   \
            [](filterlab::FILTER##_pipeline::Pipeline &p, const Halide::Target &target,                        \
               const filterlab::schedules::Point &) { APPLY(Halide::Pipeline(p.output), target); },            \
            std::string {}                                                                                     \
    }
