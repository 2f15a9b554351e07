// Named schedules for a filter's generator.
//
// A filter's algorithms are types (generators/<filter>.h: box::Separable,
// box::RunningSums, box::LaneRunningSums, ...), each holding only its stages, defined
// by its constructor. A schedule is written once, in schedules/<filter>/, for
// one of them,
//
//     FILTERLAB_SCHEDULE(box, Separable, cpu, tiled) { ... }
//
// which defines the function (its `p` is a box::Separable) and registers it
// under "cpu_tiled" for the box generator: a schedule places the stages of
// its algorithm and defines none. A GPU schedule is declared `gpu`: written
// with Halide's gpu_* directives, it is built for CUDA and for OpenCL alike
// (variants cuda_<name> and opencl_<name>). The build reads the same call
// (filterlab_build/halide_registrations.py, the grammar's one reader) to compile its
// static libraries and register its variants: that call is the only
// registration a new schedule needs.
//
// Optional arguments, read by the build only: what the schedule restricts of
// the filter's contract (without it, the contract's whole domain),
//
//     FILTERLAB_SCHEDULE(box, Separable, gpu, rows8, SUPPORTS("radius=1")) {
//
// the axes of its space, each with its values and the default in brackets,
//
//     FILTERLAB_SCHEDULE(box, Separable, gpu, tile, AXES("tile_x=16,[32],64 tile_y=2,4,[8],16")) {
//         p.output.gpu_tile(..., point["tile_x"], point["tile_y"], ...);
//
// READS("words") (the algorithm reads the image as 32-bit words, word_view.h),
// CUDA_ONLY("why") (a GPU schedule OpenCL cannot have, and why), and
// FRONTIER("why") (built by default: see docs/extending.md). The default
// build compiles the default point; a sweep build (-DFILTERLAB_SWEEPS)
// compiles every point as its own variant, "cuda_tile[tile_x=64+tile_y=4]".
// A point is spelled one way everywhere, axis=value joined by '+'
// (schedule_point.h reads it). A point found best is frozen as a named
// schedule by one line,
//
//     FILTERLAB_FROZEN(box, gpu, tile_64x4, tile, "tile_x=64+tile_y=4");
//
// A gpu schedule's point may also name the CUDA register cap its library is
// loaded with, max_registers (the launch's axis: no schedule reads it, the
// runtime applies it; runtime/languages/halide_cuda_launch.h).
//
// An algorithm shaped by settings (the median's Separable tile, the box's
// LaneRunningSums layout) takes them as constructor arguments; the source of its
// schedules says how they come from the point, by specialising construct<>
// (below) before its registrations.
#pragma once

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "Halide.h"
#include "schedule_point.h"

namespace filterlab::schedules {

// What every registration keeps: how to build its library's pipeline. `build`
// constructs the schedule's algorithm (a type of generators/<filter>.h, from
// the generator's inputs and, for an algorithm shaped by settings, the point:
// construct<> below), which defines its stages, then runs the schedule body
// on it. `Inputs` is the filter's: what its generator hands every algorithm.
template <typename Inputs>
struct Schedule {
    std::function<void(const Inputs &, const Halide::Target &, const Point &)> build;
    bool gpu = false;  // declared gpu (or an autoschedule for a GPU target)
};

template <typename Inputs>
std::map<std::string, Schedule<Inputs>> &registry() {
    static std::map<std::string, Schedule<Inputs>> schedules;
    return schedules;
}

// The algorithm a schedule is written for, built from the generator's inputs.
// An algorithm whose stages are shaped by settings (a tile, a lane layout)
// takes them as constructor arguments; its schedules' source specialises this
// to read them from the point, before its registrations.
template <typename Algorithm>
Algorithm construct(const typename Algorithm::Inputs &inputs, const Point &) {
    return Algorithm(inputs);
}

// Whether a backend of a registration is a GPU one: the only two names a
// registration may use (another is a compile error naming it).
inline constexpr bool backend_is_gpu_cpu = false;
inline constexpr bool backend_is_gpu_gpu = true;

template <typename Algorithm>
using ScheduleBody = void (*)(Algorithm &, const Halide::Target &, const Point &);

template <typename Inputs>
struct Registrar {
    // One registration a key: a second is a mistake, never silently dropped.
    static void add(const std::string &key, Schedule<Inputs> schedule) {
        if (!registry<Inputs>().emplace(key, std::move(schedule)).second)
            throw std::logic_error("schedule '" + key + "' registered twice");
    }
    // A schedule of `Algorithm`: the body sees that algorithm's stages only.
    template <typename Algorithm>
    Registrar(const std::string &key, bool gpu, ScheduleBody<Algorithm> body) {
        auto build = [body](const Inputs &inputs, const Halide::Target &t, const Point &point) {
            Algorithm algorithm = construct<Algorithm>(inputs, point);
            body(algorithm, t, point);
        };
        add(key, Schedule<Inputs>{build, gpu});
    }
    // A frozen point of the schedule `base` (the build gives the point): looked
    // up when applied, so the order of static initialisation does not matter.
    Registrar(const std::string &key, bool gpu, const std::string &base) {
        auto build = [base](const Inputs &inputs, const Halide::Target &t, const Point &frozen_point) {
            registry<Inputs>().at(base).build(inputs, t, frozen_point);
        };
        add(key, Schedule<Inputs>{build, gpu});
    }
    // An autoschedule: Halide's emitted function applied to the filter's
    // default algorithm (the one an autoscheduler is run on).
    template <typename Algorithm>
    Registrar(const std::string &key, bool gpu, void (*apply)(Halide::Pipeline, Halide::Target), Algorithm *) {
        auto build = [apply](const Inputs &inputs, const Halide::Target &t, const Point &point) {
            Algorithm algorithm = construct<Algorithm>(inputs, point);
            apply(Halide::Pipeline(algorithm.output), t);
        };
        add(key, Schedule<Inputs>{build, gpu});
    }
};

template <typename Inputs>
const Schedule<Inputs> &find(const std::string &key) {
    auto &all = registry<Inputs>();
    auto it = all.find(key);
    if (it == all.end()) {
        std::string known;
        for (auto &[name, _] : all) known += " " + name;
        throw std::invalid_argument("unknown schedule '" + key + "'; known:" + known);
    }
    return it->second;
}

// Builds the pipeline of the schedule named `key` ("<cpu|gpu>_<name>") at
// `point` (every axis it declares, from the build; empty for a schedule of
// one point) and checks that the target fits the backend, so a GPU schedule
// is never built for a CPU target. An empty key builds `Default` (the
// filter's first algorithm) unscheduled, for an autoscheduler to schedule
// (and only then).
template <typename Default>
void build(const std::string &key, const std::string &point, const typename Default::Inputs &inputs,
           const Halide::Target &target, bool autoscheduled) {
    using Inputs = typename Default::Inputs;
    if (key.empty() && autoscheduled) {
        construct<Default>(inputs, Point::from_parameter(point));
        return;
    }
    if (autoscheduled) throw std::invalid_argument("schedule '" + key + "' given with an autoscheduler");
    const Schedule<Inputs> &schedule = find<Inputs>(key);
    if (schedule.gpu != target.has_gpu_feature()) {
        throw std::invalid_argument("schedule '" + key + "' does not match target " + target.to_string());
    }
    schedule.build(inputs, target, Point::from_parameter(point));
}

}  // namespace filterlab::schedules

#define FILTERLAB_SCHEDULE_CAT2(a, b) a##b
#define FILTERLAB_SCHEDULE_CAT(a, b) FILTERLAB_SCHEDULE_CAT2(a, b)

// FILTER is the filter's namespace in generators/<filter>.h; ALGORITHM one
// of its algorithm types, the body's `p`; BACKEND is cpu or gpu. What follows
// the name (SUPPORTS, AXES, READS, CUDA_ONLY, FRONTIER) is read by the build
// only (filterlab_build/halide_registrations.py).
#define FILTERLAB_SCHEDULE(FILTER, ALGORITHM, BACKEND, NAME, ...)                                              \
    static void schedule_##BACKEND##_##NAME(filterlab::FILTER::ALGORITHM &p, const Halide::Target &target,     \
                                            const filterlab::schedules::Point &point);                         \
    static const filterlab::schedules::Registrar<filterlab::FILTER::Inputs> FILTERLAB_SCHEDULE_CAT(            \
        registrar_, __LINE__){#BACKEND "_" #NAME, filterlab::schedules::backend_is_gpu_##BACKEND,              \
                              filterlab::schedules::ScheduleBody<filterlab::FILTER::ALGORITHM>(                \
                                  schedule_##BACKEND##_##NAME)};                                               \
    static void schedule_##BACKEND##_##NAME([[maybe_unused]] filterlab::FILTER::ALGORITHM &p,                  \
                                            [[maybe_unused]] const Halide::Target &target,                     \
                                            [[maybe_unused]] const filterlab::schedules::Point &point)

// A named schedule that is schedule BASE at one point of its space (POINT:
// read by the build, which gives the generator every axis's value).
#define FILTERLAB_FROZEN(FILTER, BACKEND, NAME, BASE, POINT, ...)                                             \
    static const filterlab::schedules::Registrar<filterlab::FILTER::Inputs> FILTERLAB_SCHEDULE_CAT(            \
        registrar_, __LINE__) {                                                                                \
        #BACKEND "_" #NAME, filterlab::schedules::backend_is_gpu_##BACKEND, #BACKEND "_" #BASE                 \
    }

// A schedule an autoscheduler wrote (schedules/<filter>/auto/, frozen by
// filterlab_build/autoschedule.py; registered by the file the build generates from the
// manifest): APPLY is the function Halide emitted, which finds the stages by
// their place in the filter's default algorithm (filterlab::FILTER::Default).
#define FILTERLAB_AUTOSCHEDULED(FILTER, BACKEND, NAME, APPLY)                                                 \
    static const filterlab::schedules::Registrar<filterlab::FILTER::Inputs> FILTERLAB_SCHEDULE_CAT(            \
        registrar_, __LINE__) {                                                                                \
        #BACKEND "_" #NAME, filterlab::schedules::backend_is_gpu_##BACKEND, APPLY,                             \
            static_cast<filterlab::FILTER::Default *>(nullptr)                                                 \
    }
