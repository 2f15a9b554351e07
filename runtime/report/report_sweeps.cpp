#include "report_sweeps.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <map>

#include "report_text.h"
#include "schedule_point.h"

namespace filterlab {
namespace {

using json = nlohmann::json;
using namespace report_text;

// One parameter set, channel count and size of a sweep: each point's row.
struct Slice {
    std::string params;
    int channels = 1, width = 0, height = 0;
    std::vector<std::pair<json, const BenchRow *>> points;  // values, timed row
    const BenchRow *registered = nullptr;                   // the schedule's default, as registered
};

// A point's values ({"tile_x": 64, ...}) in the one spelling of a point,
// "tile_x=64+tile_y=8" (runtime/base/schedule_point.h), its axes in the order
// the schedule declares them (`axes`, sweep.json's).
std::string values_text(const json &values, const json &axes) {
    schedules::Point::Values in_order;
    for (const json &a : axes) {
        const std::string name = a["name"].get<std::string>();
        if (values.contains(name)) in_order.emplace_back(name, values[name].get<int>());
    }
    return schedules::Point::of(in_order).text();
}

// The slices of one sweep run, in the order measured.
std::vector<Slice> slices_of(const RunDir &run) {
    const json &sweep = run.sweep;
    std::map<std::string, json> values;
    for (const json &p : sweep["points"]) values[p["variant"]] = p["values"];
    std::vector<Slice> slices;
    for (const BenchRow &r : run.rows) {
        if (r.filter != sweep["filter"]) continue;
        const bool registered = r.variant == sweep["schedule"];
        if (!registered && !values.count(r.variant)) continue;
        auto it = std::find_if(slices.begin(), slices.end(), [&](const Slice &s) {
            return s.params == r.params && s.channels == r.channels && s.width == r.width && s.height == r.height;
        });
        if (it == slices.end()) it = slices.insert(slices.end(), Slice{r.params, r.channels, r.width, r.height, {}, nullptr});
        if (!r.timed()) continue;
        if (registered) it->registered = &r;
        else it->points.push_back({values[r.variant], &r});
    }
    return slices;
}

std::string slice_section(const RunDir &run, const Slice &slice, const std::string &slug, PlotList &plots) {
    const json &sweep = run.sweep;
    const std::string name = fmt::format("{}/{}", sweep["filter"].get<std::string>(), sweep["schedule"].get<std::string>());
    std::string s = fmt::format("#### `{}` on {}, {}×{}{}, {} channel{}\n\n", name, slug, slice.width, slice.height,
                                slice.params.empty() ? "" : " " + slice.params, slice.channels,
                                slice.channels == 1 ? "" : "s");
    if (slice.points.empty()) return s + "No point was timed.\n\n";
    auto by_time = slice.points;
    std::sort(by_time.begin(), by_time.end(), [](auto &a, auto &b) { return a.second->median_us < b.second->median_us; });
    const BenchRow &best = *by_time.front().second, &worst = *by_time.back().second;
    // Within the noise of the best: its interquartile range overlaps the best's.
    std::vector<std::string> near;
    json cells = json::array();
    const json &axes = sweep["axes"];
    for (auto &[values, row] : slice.points) {
        const bool is_near = row != &best && row->p25_us <= best.p75_us;
        if (is_near) near.push_back("`" + values_text(values, axes) + "`");
        cells.push_back({{"values", values}, {"median_us", row->median_us}, {"best", row == &best}, {"near", is_near}});
    }
    json defaults = json::object();
    for (const json &a : sweep["axes"]) defaults[a["name"].get<std::string>()] = a["default"];
    s += fmt::format("{} points timed. Best: `{}`, {} (interquartile {}–{}). Worst: `{}`, {}: best / worst = {:.2f}× "
                     "faster.",
                     slice.points.size(), values_text(by_time.front().first, axes), format_time(best.median_us),
                     format_time(best.p25_us), format_time(best.p75_us), values_text(by_time.back().first, axes),
                     format_time(worst.median_us), worst.median_us / best.median_us);
    if (slice.registered) {
        s += fmt::format(" The registered default (`{}`, {}) takes {}: {:.2f}× the best.", values_text(defaults, axes),
                         sweep["schedule"].get<std::string>(), format_time(slice.registered->median_us),
                         slice.registered->median_us / best.median_us);
    }
    s += near.empty() ? " No other point is within the measured noise of the best (interquartile ranges overlapping)."
                      : " Within the measured noise of the best (interquartile ranges overlapping): " +
                            fmt::format("{}", fmt::join(near, ", ")) + ".";
    s += "\n\n";
    std::string params_slug;
    for (char c : slice.params) params_slug += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    const std::string file = fmt::format("{}_sweep_{}_{}_{}x{}{}{}.png", slug, sweep["filter"].get<std::string>(),
                                         sweep["schedule"].get<std::string>(), slice.width, slice.height,
                                         slice.channels == 1 ? "" : "_rgb", params_slug.empty() ? "" : "_" + params_slug);
    return s + plots.add({{"kind", "sweep"},
                          {"file", file},
                          {"title", fmt::format("{} on {}, {}×{} {}: median time per point (µs)", name, slug,
                                                slice.width, slice.height, slice.params)},
                          {"axes", sweep["axes"]},
                          {"cells", cells}},
                         fmt::format("{}: the median time of each point; ★ the best, ● within its noise, □ the "
                                     "registered default",
                                     name));
}

}  // namespace

std::string sweeps_section(const std::vector<const RunDir *> &runs, const std::string &filter, const std::string &slug,
                           PlotList &plots) {
    std::string s;
    for (const RunDir *run : runs) {
        if (run->sweep.is_null() || run->sweep["filter"] != filter) continue;
        const json &sweep = run->sweep;
        std::string axes;
        for (const json &a : sweep["axes"]) {
            std::string values;
            for (const json &v : a["values"]) values += (values.empty() ? "" : ", ") + std::to_string(v.get<int>());
            axes += fmt::format("{}`{}` ∈ {{{}}} (default {})", axes.empty() ? "" : "; ", a["name"].get<std::string>(),
                                values, a["default"].get<int>());
        }
        s += fmt::format("### Sweep of `{}` on {}\n\nIts axes: {}. Declared at `{}:{}`; run `{}`.\n\n",
                         sweep["schedule"].get<std::string>(), slug, axes,
                         sweep["source"]["file"].get<std::string>(), sweep["source"]["first_line"].get<int>(),
                         run->path);
        std::vector<std::string> failed;
        for (const json &p : sweep["points"])
            if (p["check"] != "ok") failed.push_back(fmt::format("`{}` ({})", p["variant"].get<std::string>(),
                                                                 p["check"].get<std::string>()));
        s += failed.empty() ? "Every point passed `filterlab check` before it was timed.\n\n"
                            : fmt::format("Failed the check, not timed: {}.\n\n", fmt::join(failed, ", "));
        for (const Slice &slice : slices_of(*run)) s += slice_section(*run, slice, slug, plots);
    }
    return s;
}

}  // namespace filterlab
