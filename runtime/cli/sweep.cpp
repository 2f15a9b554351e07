#include "sweep.h"

#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "check.h"
#include "commands.h"
#include "error.h"
#include "registry.h"
#include "run_format.h"
#include "temp_files.h"
#include "variant_names.h"
#include "bench_common.h"

namespace filterlab::cli {
namespace {

// The declared axes, "tile_x=16,[32],64 tile_y=2,[8]", as JSON: name,
// values, default (the values in declared order).
nlohmann::json axes_json(const std::string &axes) {
    nlohmann::json out = nlohmann::json::array();
    std::istringstream words(axes);
    for (std::string axis; words >> axis;) {
        const std::size_t eq = axis.find('=');
        nlohmann::json a = {{"name", axis.substr(0, eq)}, {"values", nlohmann::json::array()}};
        std::istringstream values(axis.substr(eq + 1));
        for (std::string v; std::getline(values, v, ',');) {
            const bool is_default = v.front() == '[';
            if (is_default) v = v.substr(1, v.size() - 2);
            a["values"].push_back(std::stoi(v));
            if (is_default) a["default"] = std::stoi(v);
        }
        out.push_back(a);
    }
    return out;
}

// "tile_x=64,tile_y=8" as {"tile_x": 64, "tile_y": 8}.
nlohmann::json point_json(const std::string &point) {
    nlohmann::json out = nlohmann::json::object();
    std::istringstream items(point);
    for (std::string item; std::getline(items, item, ',');) {
        const std::size_t eq = item.find('=');
        out[item.substr(0, eq)] = std::stoi(item.substr(eq + 1));
    }
    return out;
}

}  // namespace

int sweep_schedule(SweepOptions o) {
    const FilterInfo &filter = filter_info(o.filter);
    const Variant &base = find_variant(o.filter, o.schedule);
    if (!base.point.empty())
        throw Error(fmt::format("{} is one point of a sweep; give its schedule, {}", o.schedule, sweep_base(o.schedule)));
    if (base.backend == Backend::opencl)
        throw Error(fmt::format("sweeps are built on a schedule's own backend: sweep cuda_{} (the OpenCL build is its "
                                "default point only)",
                                o.schedule.substr(std::string("opencl_").size())));
    if (base.axes.empty())
        throw Error(fmt::format("{}/{} declares no axes to sweep (FILTERLAB_SCHEDULE's fifth argument)", o.filter,
                                o.schedule));
    std::vector<const Variant *> points;
    for (const Variant &v : all_variants())
        if (v.filter == o.filter && v.name.rfind(o.schedule + "[", 0) == 0) points.push_back(&v);
    if (points.empty())
        throw Error(fmt::format("no point of {0}/{1} is built: configure with -DFILTERLAB_SWEEPS={0}/{1} and build "
                                "again",
                                o.filter, o.schedule));
    if (std::string why = base.why_unavailable(); !why.empty()) throw Error(o.schedule + ": " + why);
    params_for(filter, o.bench.params);  // every parameter refused before anything runs
    nlohmann::json sweep = {{"format_version", 1},
                            {"filter", o.filter},
                            {"schedule", o.schedule},
                            {"backend", to_string(base.backend)},
                            {"source", {{"file", base.source.file}, {"first_line", base.source.first_line}}},
                            {"axes", axes_json(base.axes)}};

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
    fmt::print("to see it: filterlab report {} --out DIR\n", dir);
    return failed ? kExitFailure : kExitOk;
}

}  // namespace filterlab::cli
