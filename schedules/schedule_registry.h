// Named schedules for a filter's generator.
//
// A schedule is written once, in schedules/<filter>/, as
//
//     FILTERLAB_SCHEDULE(box, cpu, tiled) { ... }
//
// which defines the function and registers it under "cpu_tiled" for the box
// generator. A GPU schedule is declared `gpu`: written with Halide's gpu_*
// directives, it is built for CUDA and for OpenCL alike (variants cuda_<name>
// and opencl_<name>). The build reads the same call (scripts/schedule_manifest.py,
// the grammar's one reader) to compile its static libraries and register its
// variants: that call is the only registration a new schedule needs.
//
// Two optional arguments, read by the build only: what the schedule restricts
// of the filter's contract (without it, the contract's whole domain),
//
//     FILTERLAB_SCHEDULE(box, gpu, rows8, SUPPORTS("radius=1")) {
//
// and the axes of its space, each with its values and the default in brackets:
//
//     FILTERLAB_SCHEDULE(box, gpu, tile, AXES("tile_x=16,[32],64 tile_y=2,4,[8],16")) {
//         p.output.gpu_tile(..., point["tile_x"], point["tile_y"], ...);
//
// The default build compiles the default point; a sweep build
// (-DFILTERLAB_SWEEPS) compiles every point as its own variant,
// "cuda_tile[tile_x=64+tile_y=4]". A point found best is frozen as a named
// schedule by one line,
//
//     FILTERLAB_FROZEN(box, gpu, tile_64x4, tile, "tile_x=64,tile_y=4");
//
// A filter may have several algorithms (generators/<filter>.h says which). A
// schedule of any but the first names its algorithm in its registration,
//
//     FILTERLAB_SCHEDULE_OF(box, running_sums, gpu, sums_strips) { ... }
//
// and the generator defines that algorithm before applying the schedule (or,
// where the algorithm's layout is the schedule's choice, as the median's
// separable tiles and the box's lanes, the schedule defines it with its point).
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "Halide.h"

namespace filterlab::schedules {

// One point of a schedule's space as the build hands it to the generator: a
// value for every axis the schedule declares, "name:value+name:value" (a
// generator's command line takes neither '=' nor ',' in a value). The build
// has checked it against the declaration; here it is only looked up.
class Point {
public:
    explicit Point(const std::string &values);
    // The value of an axis; one the point does not give is an error.
    int operator[](const std::string &axis) const;

private:
    std::vector<std::pair<std::string, int>> values_;
    std::string text_;
};

inline Point::Point(const std::string &values) : text_(values) {
    for (std::size_t at = 0; at < values.size();) {
        const std::size_t end = std::min(values.find('+', at), values.size());
        const std::string item = values.substr(at, end - at);
        const std::size_t colon = item.find(':');
        if (colon == std::string::npos) throw std::invalid_argument("point '" + values + "': '" + item + "' is not axis:value");
        values_.emplace_back(item.substr(0, colon), std::stoi(item.substr(colon + 1)));
        at = end + 1;
    }
}

inline int Point::operator[](const std::string &axis) const {
    for (const auto &[name, value] : values_)
        if (name == axis) return value;
    throw std::invalid_argument("the schedule reads axis '" + axis + "', which its point ('" + text_ +
                                "') does not give: declare it in AXES(\"...\")");
}

template <typename Pipeline>
using ScheduleFunction = std::function<void(Pipeline &, const Halide::Target &, const Point &)>;

template <typename Pipeline>
struct Schedule {
    ScheduleFunction<Pipeline> function;
    bool gpu = false;       // declared gpu (or an autoschedule for a GPU target)
    std::string base;       // a frozen schedule: the key of the schedule whose body it runs
    std::string algorithm;  // empty: the filter's first (its generator's default)
};

template <typename Pipeline>
std::map<std::string, Schedule<Pipeline>> &registry() {
    static std::map<std::string, Schedule<Pipeline>> schedules;
    return schedules;
}

// Whether a backend of a registration is a GPU one: the only two names a
// registration may use (another is a compile error naming it).
inline constexpr bool backend_is_gpu_cpu = false;
inline constexpr bool backend_is_gpu_gpu = true;

template <typename Pipeline>
struct Registrar {
    Registrar(const std::string &key, bool gpu, ScheduleFunction<Pipeline> f, std::string algorithm = "") {
        registry<Pipeline>().emplace(key, Schedule<Pipeline>{std::move(f), gpu, "", std::move(algorithm)});
    }
    // A frozen point of the schedule `base` (the build gives the point): looked
    // up when applied, so the order of static initialisation does not matter.
    Registrar(const std::string &key, bool gpu, const std::string &base) {
        auto apply_base = [base](Pipeline &p, const Halide::Target &t, const Point &frozen_point) {
            registry<Pipeline>().at(base).function(p, t, frozen_point);
        };
        registry<Pipeline>().emplace(key, Schedule<Pipeline>{apply_base, gpu, base, ""});
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

// Applies the schedule named `key` ("<cpu|gpu>_<name>") at `point` (every
// axis it declares, from the build; empty for a schedule of one point) and
// checks that the target fits the backend, so a GPU schedule is never built
// for a CPU target. An empty key leaves the pipeline unscheduled, for an
// autoscheduler to schedule (and only then).
template <typename Pipeline>
void apply(const std::string &key, const std::string &point, Pipeline &p, const Halide::Target &target,
           bool autoscheduled) {
    if (key.empty() && autoscheduled) return;
    if (autoscheduled) throw std::invalid_argument("schedule '" + key + "' given with an autoscheduler");
    const Schedule<Pipeline> &schedule = find<Pipeline>(key);
    if (schedule.gpu != target.has_gpu_feature()) {
        throw std::invalid_argument("schedule '" + key + "' does not match target " + target.to_string());
    }
    schedule.function(p, target, Point(point));
}

}  // namespace filterlab::schedules

#define FILTERLAB_SCHEDULE_CAT2(a, b) a##b
#define FILTERLAB_SCHEDULE_CAT(a, b) FILTERLAB_SCHEDULE_CAT2(a, b)

// FILTER names the pipeline struct `<FILTER>_pipeline::Pipeline`; BACKEND is
// cpu or gpu. What follows the name (SUPPORTS("..."), AXES("..."),
// READS("words")) is read by the build only (see above; READS reaches the
// generator as its input_view parameter).
#define FILTERLAB_SCHEDULE(FILTER, BACKEND, NAME, ...) FILTERLAB_SCHEDULE_OF(FILTER, , BACKEND, NAME)

// A schedule of the filter's algorithm ALGORITHM (empty: its first).
#define FILTERLAB_SCHEDULE_OF(FILTER, ALGORITHM, BACKEND, NAME, ...)                                          \
    static void schedule_##BACKEND##_##NAME(filterlab::FILTER##_pipeline::Pipeline &p,                        \
                                            const Halide::Target &target,                                      \
                                            const filterlab::schedules::Point &point);                         \
    static const filterlab::schedules::Registrar<filterlab::FILTER##_pipeline::Pipeline>                      \
        FILTERLAB_SCHEDULE_CAT(registrar_, __LINE__){#BACKEND "_" #NAME,                                       \
                                                     filterlab::schedules::backend_is_gpu_##BACKEND,           \
                                                     schedule_##BACKEND##_##NAME, #ALGORITHM};                 \
    static void schedule_##BACKEND##_##NAME([[maybe_unused]] filterlab::FILTER##_pipeline::Pipeline &p,       \
                                            [[maybe_unused]] const Halide::Target &target,                     \
                                            [[maybe_unused]] const filterlab::schedules::Point &point)

// A named schedule that is schedule BASE at one point of its space (POINT:
// read by the build, which gives the generator every axis's value).
#define FILTERLAB_FROZEN(FILTER, BACKEND, NAME, BASE, POINT)                                                  \
    static const filterlab::schedules::Registrar<filterlab::FILTER##_pipeline::Pipeline>                      \
        FILTERLAB_SCHEDULE_CAT(registrar_, __LINE__) {                                                         \
        #BACKEND "_" #NAME, filterlab::schedules::backend_is_gpu_##BACKEND, #BACKEND "_" #BASE                 \
    }

// A schedule an autoscheduler wrote (schedules/<filter>/auto/, frozen by
// scripts/autoschedule.py; registered by the file the build generates from the
// manifest): APPLY is the function Halide emitted, which finds the stages by
// their place in the pipeline.
#define FILTERLAB_AUTOSCHEDULED(FILTER, BACKEND, NAME, APPLY)                                                 \
    static const filterlab::schedules::Registrar<filterlab::FILTER##_pipeline::Pipeline>                      \
        FILTERLAB_SCHEDULE_CAT(registrar_, __LINE__) {                                                         \
        #BACKEND "_" #NAME, filterlab::schedules::backend_is_gpu_##BACKEND,                                    \
            [](filterlab::FILTER##_pipeline::Pipeline &p, const Halide::Target &target,                        \
               const filterlab::schedules::Point &) { APPLY(Halide::Pipeline(p.output), target); }             \
    }
