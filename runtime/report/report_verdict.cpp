#include "report_verdict.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <optional>

#include "report_text.h"
#include "source_lines.h"

namespace filterlab {
namespace {

namespace fs = std::filesystem;
using namespace report_model;
using namespace report_text;

struct Counted {
    std::string variant;
    Category category;
    std::optional<LineCount> lines;
};

std::vector<Counted> line_counts(const std::vector<View> &views, const ReportOptions &o) {
    std::vector<Counted> counted;
    for (const View &v : views)
        for (auto &[name, c] : v.category) {
            if (c == Category::reference || c == Category::peer) continue;
            if (std::any_of(counted.begin(), counted.end(), [&](auto &k) { return k.variant == name; })) continue;
            std::optional<LineCount> lines;
            if (c == Category::handwritten || c == Category::handwritten_cpu || c == Category::handwritten_opencl) {
                lines = handwritten_lines(o.source_dir, v.filter, name);
            } else if (auto s = o.schedule_sources.find({v.filter, name}); s != o.schedule_sources.end()) {
                // An autoscheduled variant's own lines are the estimates the generator states.
                lines = v.origin.at(name) == Origin::autoscheduler ? span_lines(o.source_dir, s->second)
                                                                   : schedule_lines(o.source_dir, v.filter, s->second);
            }
            counted.push_back({name, c, lines});
        }
    std::stable_sort(counted.begin(), counted.end(), [](auto &a, auto &b) { return a.category < b.category; });
    return counted;
}

// The variant whose lines a row's variant counts as: a sweep's point runs its
// schedule's body, the schedule its run's sweep.json names (itself otherwise).
std::string counted_as(const View &v, const BenchRow &r) {
    if (r.origin != Origin::sweep_point) return r.variant;
    for (const RunDir *run : v.machine->runs) {
        if (run->sweep.is_null() || run->sweep["filter"] != v.filter) continue;
        for (const nlohmann::json &p : run->sweep["points"])
            if (p["variant"] == r.variant) return run->sweep["schedule"].get<std::string>();
    }
    return r.variant;
}

std::string lines_phrase(const std::vector<Counted> &counted, const std::string &variant) {
    for (auto &c : counted)
        if (c.variant == variant && c.lines)
            return fmt::format("{} line{}{}", c.lines->own, c.lines->own == 1 ? "" : "s",
                               c.lines->shared ? fmt::format(" + {} shared", c.lines->shared) : "");
    return "lines not counted";
}

// The fastest timed row among `cells` (variant -> size -> row) at `size`
// whose variant `wanted` accepts.
template <typename Wanted>
const BenchRow *fastest(const std::map<std::string, std::map<Size, const BenchRow *>> &cells, Size size, Wanted wanted) {
    const BenchRow *best = nullptr;
    for (auto &[name, by_size] : cells) {
        auto it = by_size.find(size);
        if (it == by_size.end() || !it->second->timed() || !wanted(name, *it->second)) continue;
        if (!best || it->second->median_us < best->median_us) best = it->second;
    }
    return best;
}

// Per device and size: the best schedule named by hand, the best an
// autoscheduler chose, the best point of a sweep, the best handwritten one.
std::string origins_table(const std::vector<View> &views, const std::vector<Counted> &counted) {
    struct Side {
        Category halide, hand;
        const char *backend, *device;
    };
    const Side sides[] = {{Category::halide_cuda, Category::handwritten, "cuda", "CUDA"},
                          {Category::halide_cpu, Category::handwritten_cpu, "cpu", "CPU"}};
    std::vector<std::vector<std::string>> rows;
    for (const Side &side : sides)
        for (const View &v : views)
            for (Size size : v.sizes) {
                auto cell = [&](const BenchRow *r) {
                    return r ? fmt::format("`{}` {} ({})", r->variant, format_time(r->median_us),
                                           lines_phrase(counted, counted_as(v, *r)))
                             : std::string("—");
                };
                auto of_origin = [&](auto is_origin) {
                    return [&, is_origin](const std::string &, const BenchRow &r) {
                        return r.backend == side.backend && category_of(r) == side.halide && is_origin(r.origin);
                    };
                };
                const BenchRow *named = fastest(v.cell, size, of_origin(named_by_hand));
                const BenchRow *automatic =
                    fastest(v.cell, size, of_origin([](Origin o) { return o == Origin::autoscheduler; }));
                const BenchRow *point = fastest(v.points, size, of_origin([](Origin o) { return o == Origin::sweep_point; }));
                auto hand = v.best.find({size, side.hand});
                if (!named && !automatic && !point) continue;
                rows.push_back({side.device, v.machine->slug, fmt::format("{}, {}ch", v.params, v.channels),
                                size_label(size), cell(named), cell(automatic), cell(point),
                                cell(hand == v.best.end() ? nullptr : hand->second)});
            }
    if (rows.empty()) return "";
    return "Where the best schedules come from, per device and size: the best schedule named by hand, the best an "
           "autoscheduler chose (its lines: the generator's estimates), the best point of a sweep (its lines: the "
           "swept schedule's), the best handwritten variant.\n\n" +
           markdown_table({"device", "machine", "parameters", "size", "best named schedule", "best autoscheduled",
                           "best sweep point", "best handwritten"},
                          rows, 4);
}

// What the autoschedulers refused for this filter (filterlab_build/autoschedule.py
// writes schedules/<filter>/auto/refused.txt), with their messages.
std::string refusals_paragraph(const std::string &source_dir, const std::string &filter) {
    std::ifstream in(fs::path(source_dir) / "schedules" / filter / "auto" / "refused.txt");
    std::vector<std::vector<std::string>> rows;
    for (std::string line; std::getline(in, line);) {
        const std::size_t colon = line.find(": ");
        if (colon != std::string::npos) rows.push_back({"`" + line.substr(0, colon) + "`", line.substr(colon + 2)});
    }
    if (rows.empty()) return "";
    return "Autoschedulers that refused or failed on " + filter + " (`schedules/" + filter +
           "/auto/refused.txt`), with their messages:\n\n" + markdown_table({"autoscheduler", "message"}, rows, 2);
}

// Per algorithm of a filter that has several: the best Halide CUDA schedule
// of that algorithm against the best handwritten CUDA kernel of the same one,
// per machine, parameters and size (a variant of unknown algorithm, from an
// old run this build does not know, is left out).
std::string same_algorithm_table(const std::string &filter, const std::vector<View> &views, const ReportOptions &o) {
    auto algorithms = o.filter_algorithms.find(filter);
    if (algorithms == o.filter_algorithms.end() || algorithms->second.size() < 2) return "";
    std::vector<std::vector<std::string>> rows;
    for (const std::string &algorithm : algorithms->second)
        for (const View &v : views)
            for (Size size : v.sizes) {
                auto of = [&](Category c) {
                    return fastest(v.cell, size, [&](const std::string &, const BenchRow &r) {
                        return category_of(r) == c && r.algorithm == algorithm;
                    });
                };
                const BenchRow *h = of(Category::halide_cuda), *w = of(Category::handwritten);
                if (!h || !w) continue;
                rows.push_back({algorithm, v.machine->slug, fmt::format("{}, {}ch", v.params, v.channels),
                                size_label(size), fmt::format("`{}` {}", h->variant, format_time(h->median_us)),
                                fmt::format("`{}` {}", w->variant, format_time(w->median_us)),
                                fmt::format("{:.2f}", h->median_us / w->median_us)});
            }
    if (rows.empty()) return "";
    return "The same comparison on each algorithm (CUDA): the best Halide schedule of an algorithm against the best "
           "handwritten kernel of the same algorithm — the language compared, not the algorithms.\n\n" +
           markdown_table({"algorithm", "machine", "parameters", "size", "best Halide CUDA", "best handwritten CUDA",
                           "Halide / hand"},
                          rows, 4);
}

// One device's weighing: its Halide category against its handwritten one.
struct VerdictSide {
    Category halide, hand;
    const char *device, *hand_words;
};

// The verdict table's rows and, per machine and device, the sentence of its
// last size compared.
struct VerdictRows {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> sentences;
};

// Adds one view's rows on one device, and the sentence of its last size compared.
void compare_view(const VerdictSide &side, const View &v, const std::vector<Counted> &counted, VerdictRows &out) {
    std::string last;
    for (Size size : v.sizes) {
        auto h = v.best.find({size, side.halide}), w = v.best.find({size, side.hand});
        if (h == v.best.end() || w == v.best.end()) continue;
        const double ratio = h->second->median_us / w->second->median_us;
        const std::string word = ratio >= 1 ? fmt::format("Halide {:.2f}× slower", ratio)
                                            : fmt::format("Halide {:.2f}× faster", 1 / ratio);
        out.rows.push_back({v.machine->slug, side.device, fmt::format("{}, {}ch", v.params, v.channels),
                            size_label(size),
                            fmt::format("`{}` {}", h->second->variant, format_time(h->second->median_us)),
                            fmt::format("`{}` {}", w->second->variant, format_time(w->second->median_us)),
                            fmt::format("{:.2f}", ratio), word});
        last = fmt::format("**{} at {} ({}), {}**: the best Halide {} schedule, `{}` (schedule: {}), takes "
                           "{:.2f}× the time of the best handwritten {} one, `{}` ({}: {}): {}.",
                           v.machine->slug, size_label(size), v.params, side.device, side.device,
                           h->second->variant, lines_phrase(counted, h->second->variant), ratio, side.device,
                           w->second->variant, side.hand_words, lines_phrase(counted, w->second->variant), word);
    }
    if (!last.empty()) out.sentences.push_back(last);
}

// Every view's verdict rows, device by device.
VerdictRows compare_devices(const std::vector<View> &views, const std::vector<Counted> &counted) {
    // On the GPU: Halide CUDA against the CUDA kernels; on the CPU: Halide CPU
    // against the OpenMP and Pthreads baselines.
    const VerdictSide sides[] = {
        {Category::halide_cuda, Category::handwritten, "CUDA", "kernel and host wrapper"},
        {Category::halide_opencl, Category::handwritten_opencl, "OpenCL", "kernel and launcher"},
        {Category::halide_cpu, Category::handwritten_cpu, "CPU", "baseline"}};
    VerdictRows out;
    for (const VerdictSide &side : sides)
        for (const View &v : views) compare_view(side, v, counted, out);
    return out;
}

// The verdict table and its sentences, or why there is none.
std::string verdict_paragraphs(const std::string &filter, const VerdictRows &verdict) {
    if (verdict.rows.empty()) {
        return "No machine in these runs timed both a Halide schedule and a handwritten variant of " + filter +
               " on the same device.\n\n";
    }
    std::string s = "Best Halide time over best handwritten time on each device, whatever their algorithms (below 1: "
                    "the DSL is faster).\n\n";
    s += markdown_table({"machine", "device", "parameters", "size", "best Halide", "best handwritten", "Halide / hand",
                         "verdict"},
                        verdict.rows, 4);
    for (auto &line : verdict.sentences) s += line + "\n\n";
    return s;
}

// One variant's row of the lines-of-code table: its counts and the parts counted.
std::vector<std::string> lines_of_code_row(const Counted &c) {
    if (!c.lines) return {fmt::format("`{}`", c.variant), label(c.category), "—", "—", "source not found"};
    std::string parts;
    for (auto &p : c.lines->own_parts) parts += (parts.empty() ? "" : ", ") + p;
    if (!c.lines->shared_parts.empty()) {
        parts += "; shared: ";
        for (std::size_t i = 0; i < c.lines->shared_parts.size(); i++)
            parts += (i ? ", " : "") + c.lines->shared_parts[i];
    }
    return {fmt::format("`{}`", c.variant), label(c.category), std::to_string(c.lines->own),
            std::to_string(c.lines->shared), "`" + c.lines->file + "`: " + parts};
}

// The lines of code of every variant counted, or why they are not shown.
std::string lines_of_code(const std::string &source_dir, const std::string &filter,
                          const std::vector<Counted> &counted) {
    if (counted.empty()) return "No Halide schedule or handwritten kernel of " + filter + " in these runs.\n\n";
    if (!fs::is_directory(source_dir)) {
        return "Lines of code: not counted, no source tree at `" + source_dir + "` (`--source`).\n\n";
    }
    std::string s = "Lines of code (see *How to read this report*).";
    if (auto alg = algorithm_lines(source_dir, filter))
        s += fmt::format(" The Halide algorithm, `generators/{}.h`, is {} lines, written once for every schedule.", filter,
                         *alg);
    s += "\n\n";
    std::vector<std::vector<std::string>> loc;
    for (const Counted &c : counted) loc.push_back(lines_of_code_row(c));
    if (!loc.empty()) s += markdown_table({"variant", "kind", "own lines", "shared lines", "counted"}, loc, 5);
    return s;
}

}  // namespace

std::string verdict_section(const std::string &filter, const std::vector<View> &views, const ReportOptions &o) {
    const std::string &source_dir = o.source_dir;
    std::string s = "### DSL versus hand: " + filter + "\n\n";
    const std::vector<Counted> counted = line_counts(views, o);
    s += verdict_paragraphs(filter, compare_devices(views, counted));
    s += same_algorithm_table(filter, views, o);
    s += origins_table(views, counted);
    s += refusals_paragraph(source_dir, filter);
    return s + lines_of_code(source_dir, filter, counted);
}

}  // namespace filterlab
