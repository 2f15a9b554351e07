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
#pragma once

#include <functional>
#include <map>
#include <stdexcept>
#include <string>

#include "Halide.h"

namespace filterlab::schedules {

template <typename Pipeline>
using ScheduleFunction = std::function<void(Pipeline &, const Halide::Target &)>;

template <typename Pipeline>
std::map<std::string, ScheduleFunction<Pipeline>> &registry() {
    static std::map<std::string, ScheduleFunction<Pipeline>> schedules;
    return schedules;
}

template <typename Pipeline>
struct Registrar {
    Registrar(const std::string &key, ScheduleFunction<Pipeline> f) {
        registry<Pipeline>().emplace(key, std::move(f));
    }
};

// Applies the schedule named `key` ("<backend>_<name>") and checks that the
// target fits the backend, so a GPU schedule is never built for a CPU target.
// A "cuda" schedule is written with Halide's gpu_* directives, which every GPU
// API takes: the build compiles it for CUDA and for OpenCL alike.
template <typename Pipeline>
void apply(const std::string &key, Pipeline &p, const Halide::Target &target) {
    auto &all = registry<Pipeline>();
    auto it = all.find(key);
    if (it == all.end()) {
        std::string known;
        for (auto &[name, _] : all) known += " " + name;
        throw std::invalid_argument("unknown schedule '" + key + "'; known:" + known);
    }
    const bool wants_gpu = key.rfind("cuda_", 0) == 0;
    if (wants_gpu != target.has_gpu_feature()) {
        throw std::invalid_argument("schedule '" + key + "' does not match target " + target.to_string());
    }
    it->second(p, target);
}

}  // namespace filterlab::schedules

#define FILTERLAB_SCHEDULE_CAT2(a, b) a##b
#define FILTERLAB_SCHEDULE_CAT(a, b) FILTERLAB_SCHEDULE_CAT2(a, b)

// FILTER names the pipeline struct `<FILTER>_pipeline::Pipeline`; SUPPORTS is
// read by CMake only (the parameter values this schedule accepts).
#define FILTERLAB_SCHEDULE(FILTER, BACKEND, NAME, SUPPORTS)                                   \
    static void schedule_##BACKEND##_##NAME(filterlab::FILTER##_pipeline::Pipeline &p,                     \
                                            const Halide::Target &target);                      \
    static const filterlab::schedules::Registrar<filterlab::FILTER##_pipeline::Pipeline>                   \
        FILTERLAB_SCHEDULE_CAT(registrar_, __LINE__){#BACKEND "_" #NAME, schedule_##BACKEND##_##NAME}; \
    static void schedule_##BACKEND##_##NAME([[maybe_unused]] filterlab::FILTER##_pipeline::Pipeline &p,    \
                                            [[maybe_unused]] const Halide::Target &target)
