#include "sweep.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "check.h"
#include "commands.h"
#include "error.h"
#include "halide_cuda_launch.h"
#include "registry.h"
#include "run_format.h"
#include "sweep_points.h"
#include "temp_files.h"
#include "tvm_variant.h"
#include "bench_common.h"

namespace filterlab::cli {
namespace {

// The schedule's axes (Variant::axes, from the build's manifest) as JSON:
// name, values in declared order, default.
nlohmann::json axes_json(const std::vector<ScheduleAxis> &axes) {
    nlohmann::json out = nlohmann::json::array();
    for (const ScheduleAxis &a : axes) out.push_back({{"name", a.name}, {"values", a.values}, {"default", a.default_value}});
    return out;
}

// A point (Variant::point) as {"tile_x": 64, "tile_y": 8}.
nlohmann::json point_json(const SchedulePoint &point) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto &[axis, value] : point) out[axis] = value;
    return out;
}

bool same_schedule(const Variant &a, const Variant &b) {
    return a.filter == b.filter && a.source.file == b.source.file && a.source.first_line == b.source.first_line;
}

// The axes the points vary: the schedule's own, and those its points add to
// its point (the CUDA register cap of a launch sweep, max_registers, whose
// default is the base's value, else Halide's 64 or TVM's 0: no cap written).
std::vector<ScheduleAxis> swept_axes(const Variant &base, const std::vector<const Variant *> &points) {
    std::vector<ScheduleAxis> axes = base.axes;
    for (const Variant *p : points) {
        for (const auto &[name, value] : p->point) {
            auto at = std::find_if(axes.begin(), axes.end(), [&](const ScheduleAxis &a) { return a.name == name; });
            if (at == axes.end()) {
                const int cap = base.kind == Kind::tvm ? kTvmMaxRegisters : halide_cuda::kHalideMaxRegisters;
                int fallback = name == halide_cuda::kMaxRegistersAxis ? cap : value;
                for (const auto &[own, v] : base.point) fallback = own == name ? v : fallback;
                axes.push_back({name, {}, fallback});
                at = axes.end() - 1;
            }
            if (std::find(at->values.begin(), at->values.end(), value) == at->values.end()) at->values.push_back(value);
        }
    }
    return axes;
}

// The variant of `v`'s schedule itself (its default point) on `backend`; null when not built.
const Variant *schedule_of(const Variant &v, Backend backend) {
    for (const Variant &s : all_variants())
        if (s.origin == Origin::schedule && s.backend == backend && same_schedule(s, v)) return &s;
    return nullptr;
}

// The variant to sweep, refused with the reason when it cannot be.
const Variant &sweepable(const SweepOptions &o) {
    const Variant &base = find_variant(o.filter, o.schedule);
    const Variant *own = schedule_of(base, base.backend == Backend::opencl ? Backend::cuda : base.backend);
    if (base.origin == Origin::sweep_point && own)
        throw Error(fmt::format("{} is one point of a sweep; give its schedule, {}", o.schedule, own->name));
    if (base.backend == Backend::opencl && own)
        throw Error(fmt::format("sweeps are built on a schedule's own backend: sweep {} (the OpenCL build is its "
                                "default point only)",
                                own->name));
    if (base.origin != Origin::schedule && base.origin != Origin::frozen_point)
        throw Error(fmt::format("{}/{} is not a schedule or frozen point (Halide's or TVM's): nothing to sweep", o.filter,
                                o.schedule));
    if (base.axes.empty() && base.backend != Backend::cuda)
        throw Error(fmt::format("{}/{} declares no axes to sweep (AXES(\"...\") in its registration)", o.filter,
                                o.schedule));
    return base;
}

}  // namespace

int sweep_schedule(SweepOptions o) {
    const FilterInfo &filter = filter_info(o.filter);
    const Variant &base = sweepable(o);
    std::vector<const Variant *> points;
    for (const Variant &v : all_variants())
        if (is_sweep_point_of(v, base)) points.push_back(&v);
    if (points.empty())
        throw Error(fmt::format("no point of {0}/{1} is built: configure with -DFILTERLAB_SWEEPS={0}/{1}{2} and "
                                "build again",
                                o.filter, o.schedule,
                                base.backend != Backend::cuda ? ""
                                : base.axes.empty()           ? ":max_registers (its register cap)"
                                                              : " (its axes) or " + o.filter + "/" + o.schedule +
                                                          ":max_registers (its register cap)"));
    if (std::string why = base.why_unavailable(); !why.empty()) throw Error(o.schedule + ": " + why);
    params_for(filter, o.bench.params);  // every parameter refused before anything runs
    nlohmann::json sweep = {{"format_version", 1},
                            {"filter", o.filter},
                            {"schedule", o.schedule},
                            {"backend", to_string(base.backend)},
                            {"source", {{"file", base.source.file}, {"first_line", base.source.first_line}}},
                            {"axes", axes_json(swept_axes(base, points))}};

    // 1. Every point against the reference over the check's matrix.
    CheckOptions check;
    check.filter = o.filter;
    check.quick = o.quick;
    check.quiet = o.bench.quiet;
    check.images_dir = default_images_dir();
    for (const Variant *v : points) check.variants.push_back(v->name);
    std::ostringstream discarded;
    std::ostream &log = o.bench.quiet ? static_cast<std::ostream &>(discarded) : std::cerr;
    const std::vector<VariantResult> checked = run_check(check, log);
    print_check_table(checked, log);

    // 2. The points that passed, and the schedule's default, timed side by side.
    nlohmann::json point_list = nlohmann::json::array();
    o.bench.filters = {o.filter};
    o.bench.backends = {to_string(base.backend)};
    o.bench.variants = {base.name};
    int failed = 0;
    for (const VariantResult &r : checked) {
        const bool ok = r.failed == 0 && r.passed > 0;
        point_list.push_back({{"variant", r.variant->name}, {"values", point_json(r.variant->point)},
                              {"check", ok ? "ok" : r.verdict()}, {"check_failures", r.failures}});
        if (ok) o.bench.variants.push_back(r.variant->name);
        failed += !ok;
    }
    const std::string dir = run_bench(o.bench);
    sweep["points"] = point_list;
    try {
        write_file_atomically((std::filesystem::path(dir) / kSweepFile).string(), sweep.dump(1) + "\n");
    } catch (...) {
        std::error_code ignored;  // a run without its sweep.json would read as a plain bench run
        std::filesystem::remove_all(dir, ignored);
        throw;
    }
    fmt::print("sweep: {} points of {}/{} ({} failed the check and were not timed): {}\n", points.size(), o.filter,
               o.schedule, failed, dir);
    fmt::print(stderr, "to see it: filterlab report {} --out DIR\n", dir);  // a notice
    return failed ? kExitFailure : kExitOk;
}

}  // namespace filterlab::cli
