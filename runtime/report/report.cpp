#include "report.h"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <set>

#include "error.h"
#include "report_model.h"
#include "report_made.h"
#include "report_opencl.h"
#include "report_text.h"
#include "report_machines.h"
#include "report_pictures.h"
#include "report_plots.h"
#include "report_summary.h"
#include "report_sweeps.h"
#include "report_verdict.h"
#include "run_dir.h"

namespace filterlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace report_model;
using namespace report_text;

std::string format_amount(double v) { return v >= 100 ? fmt::format("{:.0f}", v) : fmt::format("{:.3g}", v); }

std::string untimed_cell(const BenchRow &r) { return to_string(r.status); }

std::string time_cell(const View &v, const BenchRow &r) {
    if (!r.timed()) return untimed_cell(r);
    std::string s = format_time(r.median_us);
    if (is_best(v, &r)) s = "**" + s + "**";
    if (const BenchRow *ref = reference_at(v, {r.width, r.height}); ref && ref != &r)
        s += " ×" + format_amount(ref->median_us / r.median_us);
    return s + (r.status == Status::differs ? " †" : "");
}

std::string throughput_cell(const View &v, const BenchRow &r) {
    if (!r.timed()) return untimed_cell(r);
    // results.csv keeps two decimals: a slow reference reads 0.00.
    std::string s = (r.gb_per_s > 0 ? format_amount(r.gb_per_s) : "<0.01") + " GB/s";
    if (is_best(v, &r)) s = "**" + s + "**";
    if (r.backend != "cpu" && r.roofline_pct > 0) s += fmt::format(" ({:.1f}%)", r.roofline_pct);
    return s;
}

// ---------------------------------------------------------------- sections

// A filter with several algorithms gets an algorithm column (this build's
// registry says which; "—" for a variant it does not know).
std::string tables_section(const View &v, const ReportOptions &o) {
    if (v.variants.empty()) return "Nothing measured on this machine — " + by_reason(v.not_measured) + ".\n\n";
    auto algorithms = o.filter_algorithms.find(v.filter);
    const bool several = algorithms != o.filter_algorithms.end() && algorithms->second.size() > 1;
    std::vector<std::string> header = {"variant", "kind"};
    if (several) header.push_back("algorithm");
    for (Size s : v.sizes) header.push_back(size_label(s));
    std::vector<std::vector<std::string>> times, rates;
    for (const std::string &name : v.variants) {
        std::vector<std::string> t = {fmt::format("`{}`", name), label(v.category.at(name))};
        if (several) {
            auto a = o.algorithms.find({v.filter, name});
            t.push_back(a == o.algorithms.end() ? "—" : a->second);
        }
        std::vector<std::string> g = t;
        for (Size s : v.sizes) {
            const auto &cells = v.cell.at(name);
            const BenchRow *r = cells.count(s) ? cells.at(s) : nullptr;
            t.push_back(r ? time_cell(v, *r) : "—");
            g.push_back(r ? throughput_cell(v, *r) : "—");
        }
        times.push_back(t);
        rates.push_back(g);
    }
    std::string s = "Time per image (median), and × the speed-up over the serial CPU reference at the same size. "
                    "**Bold**: the best of its kind (Halide CPU, Halide CUDA, handwritten CUDA, peers) at that size.\n\n";
    s += markdown_table(header, times);
    s += "Throughput (each input sample read once, each output sample written once) and, for CUDA variants, the "
         "share of the copy roofline measured in the same run.\n\n";
    s += markdown_table(header, rates);
    bool differs = false;
    for (auto &[name, cells] : v.cell)
        for (auto &[size, r] : cells) differs = differs || r->status == Status::differs;
    if (differs) s += "† a peer that computes another function than the contract's (timed; see the run's notes).\n\n";
    if (!v.not_measured.empty()) s += "Not measured on this machine — " + by_reason(v.not_measured) + ".\n\n";
    return s;
}

std::string best_section(const View &v) {
    std::vector<std::string> header = {"size", "reference"};
    for (Category c : kRanked) header.push_back(label(c));
    std::vector<std::vector<std::string>> rows;
    for (Size s : v.sizes) {
        const BenchRow *ref = reference_at(v, s);
        std::vector<std::string> row = {size_label(s), ref ? format_time(ref->median_us) : "—"};
        bool any = false;
        for (Category c : kRanked) {
            auto it = v.best.find({s, c});
            if (it == v.best.end()) {
                row.push_back("—");
                continue;
            }
            any = true;
            const BenchRow &r = *it->second;
            row.push_back(fmt::format("`{}` {}{}", r.variant, format_time(r.median_us),
                                      r.backend != "cpu" && r.roofline_pct > 0
                                          ? fmt::format(", {:.0f}% of roofline", r.roofline_pct)
                                          : ""));
        }
        if (any) rows.push_back(row);
    }
    if (rows.empty()) return "";
    return "Which wins where: the best of each kind at each size.\n\n" + markdown_table(header, rows);
}

// CPU thread scaling: Halide CPU variants measured at two thread counts or
// more (several runs with HL_NUM_THREADS, or a bench over thread counts).
std::string scaling_section(const View &v, PlotList &plots) {
    Size size{0, 0};
    for (auto &[name, sizes] : v.by_threads)
        if (v.category.at(name) == Category::halide_cpu)
            for (auto &[s, threads] : sizes)
                if (threads.size() >= 2 && 1LL * s.first * s.second > 1LL * size.first * size.second) size = s;
    if (size.first == 0) {
        return "CPU thread scaling: not measured (each Halide CPU case ran at one thread count; "
               "`filterlab bench --threads 1,2,4` measures it).\n\n";
    }
    std::set<int> counts;
    for (auto &[name, sizes] : v.by_threads)
        if (v.category.at(name) == Category::halide_cpu && sizes.count(size))
            for (auto &[t, r] : sizes.at(size)) counts.insert(t);
    std::vector<std::string> header = {"variant", "kind"};
    for (int t : counts) header.push_back(fmt::format("{} thread{}", t, t == 1 ? "" : "s"));
    std::vector<std::vector<std::string>> rows;
    json series = json::array();
    for (auto &[name, sizes] : v.by_threads) {
        if (v.category.at(name) != Category::halide_cpu || !sizes.count(size) || sizes.at(size).size() < 2) continue;
        const auto &at = sizes.at(size);
        const BenchRow *base = at.begin()->second;
        std::vector<std::string> row = {fmt::format("`{}`", name), label(Category::halide_cpu)};
        json xs = json::array(), ys = json::array();
        for (int t : counts) {
            if (!at.count(t) || !at.at(t)->timed()) {
                row.push_back("—");
                continue;
            }
            const BenchRow &r = *at.at(t);
            row.push_back(fmt::format("{} ×{:.2f}", format_time(r.median_us), base->median_us / r.median_us));
            xs.push_back(t);
            ys.push_back(base->median_us / r.median_us);
        }
        rows.push_back(row);
        series.push_back({{"label", name}, {"group", "halide_cpu"}, {"x", xs}, {"y", ys}});
    }
    return fmt::format("CPU thread scaling at {} (× the speed-up over the fewest threads measured):\n\n",
                       size_label(size)) +
           markdown_table(header, rows) +
           plots.add({{"kind", "scaling"},
                      {"file", v.slug() + "_threads.png"},
                      {"title", fmt::format("{} at {}: CPU thread scaling", v.title(), size_label(size))},
                      {"xlabel", "threads"},
                      {"ylabel", fmt::format("speed-up over {} thread{}", *counts.begin(),
                                             *counts.begin() == 1 ? "" : "s")},
                      {"series", series}},
                     "CPU thread scaling");
}

std::string plots_of(const View &v, PlotList &plots) {
    json series = json::array();
    for (const std::string &name : v.variants) {
        json xs = json::array(), ys = json::array();
        for (Size s : v.sizes) {
            const auto &cells = v.cell.at(name);
            if (!cells.count(s) || !cells.at(s)->timed()) continue;
            xs.push_back(1e-6 * s.first * s.second);
            ys.push_back(cells.at(s)->median_us / 1e3);
        }
        if (!xs.empty())
            series.push_back({{"label", name}, {"group", plot_group(v.category.at(name))}, {"x", xs}, {"y", ys}});
    }
    if (series.empty()) return "";
    std::string s = plots.add({{"kind", "loglog"},
                               {"file", v.slug() + "_time.png"},
                               {"title", v.title() + ": time per image"},
                               {"xlabel", "megapixels"},
                               {"ylabel", "time per image (ms)"},
                               {"series", series}},
                              "time per image against image size, log-log");
    const Size largest = v.sizes.back();
    json bars = json::array();
    for (const std::string &name : v.variants) {
        const auto &cells = v.cell.at(name);
        if (cells.count(largest) && cells.at(largest)->timed())
            bars.push_back({{"label", name},
                            {"group", plot_group(v.category.at(name))},
                            {"value", cells.at(largest)->gb_per_s}});
    }
    const double roof = roofline_of(*v.machine);
    return s + plots.add({{"kind", "bars"},
                          {"file", v.slug() + "_bars.png"},
                          {"title", fmt::format("{} at {}", v.title(), size_label(largest))},
                          {"ylabel", "GB/s"},
                          {"bars", bars},
                          {"hline", roof},
                          {"hline_label", fmt::format("copy roofline {:.0f} GB/s", roof)}},
                         fmt::format("GB/s at {}{}", size_label(largest),
                                     roof > 0 ? ", with the copy roofline" : " (no GPU: no roofline measured)"));
}

std::string now_utc() {
    const std::time_t t = std::time(nullptr);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
    return text;
}

// Everything the page is made of, read once.
struct PageInput {
    const ReportOptions &options;
    std::vector<RunDir> runs;
    std::vector<Machine> machines;
    std::vector<std::string> filters;  // in the order the runs first give them
    std::map<std::string, std::vector<View>> views;
};

std::string filter_section(const PageInput &in, const std::string &f, PlotList &plots, CopiedPictures &copied) {
    const ReportOptions &o = in.options;
    std::string s = "## " + f + "\n\n";
    for (const Machine &m : in.machines) {
        std::vector<const View *> mine;
        for (const View &v : in.views.at(f))
            if (v.machine == &m) mine.push_back(&v);
        if (mine.empty()) continue;
        s += fmt::format("### {} on {}: {}\n\n", f, m.slug, m.name);
        for (const View *v : mine) {
            s += fmt::format("#### {}\n\n", v->title());
            s += tables_section(*v, o) + best_section(*v) + plots_of(*v, plots) + scaling_section(*v, plots);
        }
        s += sweeps_section(m.runs, f, m.slug, plots);
        s += pictures_section(m, f, o.out_dir, plots, copied);
    }
    return s + verdict_section(f, in.views.at(f), o) + made_section(f, in.views.at(f), o) +
           opencl_section(f, in.views.at(f), o.cuda_twins);
}

std::string how_to_read(const std::string &source_dir) {
    return fmt::format(
        "## How to read the details\n\nTimes are the median over the samples of each case; × is the speed-up over the "
        "plain serial CPU reference at the same size, where the reference was measured; GB/s counts each input sample "
        "read once and each output sample written once; the share of the roofline compares GPU variants (CUDA, and "
        "OpenCL on that GPU) with the 1 GiB device-to-device copy measured in the same run. Lines of code are counted "
        "by the tool in `{}` "
        "(non-blank, non-comment): a schedule's own lines are the body of its `FILTERLAB_SCHEDULE`; a handwritten "
        "kernel's are every definition of its `.cu` or `.cpp` file (and of the headers and OpenCL `.cl` kernels "
        "beside it) that its registration "
        "reaches — kernels, device helpers, host wrapper, registration. *Shared* lines are the helpers of the "
        "headers every filter uses (`schedules/schedule_helpers.h`; `handwritten/*.h`, `*.cuh`) that a variant "
        "reaches.\n\n",
        source_dir);
}

std::string appendix(const PageInput &in, const PlotOutcome &plotted) {
    std::string s = "## Appendix: how this report was made\n\n";
    s += fmt::format("Made on {} by `{}` from {} run{} on {} machine{} (machines are told apart by host name, "
                     "CPU and GPU; runs of one machine are merged, a case measured twice keeping the later "
                     "run's result, unless the later run skipped it).\n\n",
                     now_utc(), in.options.command_line, in.runs.size(), in.runs.size() == 1 ? "" : "s",
                     in.machines.size(), in.machines.size() == 1 ? "" : "s");
    return s + (plotted.made ? "Plots: made by `scripts/plots.py` (matplotlib).\n"
                             : "Plots: **skipped** — " + plotted.why +
                                   ". The tables, counts and pictures are complete.\n");
}

// The page, its plots added to `plots` (shown as `plotted` says).
std::string compose_page(const PageInput &in, PlotList &plots, const PlotOutcome &plotted) {
    CopiedPictures copied;
    std::string body;
    for (const std::string &f : in.filters) body += filter_section(in, f, plots, copied);
    std::string head = "# FilterLab report\n\n" + answer_section(in.filters, in.views, plots);
    if (!plotted.made) head += "Plots were not made: the appendix says why.\n\n";
    return head + how_to_read(in.options.source_dir) + glance_section(in.filters, in.views) + body +
           machines_section(in.machines) + appendix(in, plotted);
}

// Every run directory read and checked before anything is written.
// (A run of format 2 takes a variant's algorithm from this build's registry.)
std::vector<RunDir> load_runs(const std::vector<std::string> &dirs, const KnownAlgorithms &algorithms) {
    if (dirs.empty()) throw Error("report: give at least one bench run directory");
    std::vector<RunDir> runs;
    for (const std::string &path : dirs) {
        const auto canonical = fs::weakly_canonical(path);
        for (const RunDir &r : runs)
            if (fs::weakly_canonical(r.path) == canonical) throw Error(path + ": run directory given twice");
        runs.push_back(load_run_dir(path, algorithms));
    }
    return runs;
}

}  // namespace

ReportResult write_report(const ReportOptions &o) {
    PageInput in{o, load_runs(o.run_dirs, o.algorithms), {}, {}, {}};
    const fs::path out = o.out_dir;
    std::error_code ec;
    fs::create_directories(out, ec);
    if (!fs::is_directory(out)) throw Error(o.out_dir + ": cannot create the report folder");
    in.machines = group_machines(in.runs);
    for (const RunDir &r : in.runs)
        for (const BenchRow &row : r.rows)
            if (std::find(in.filters.begin(), in.filters.end(), row.filter) == in.filters.end())
                in.filters.push_back(row.filter);
    for (const std::string &f : in.filters)
        for (const Machine &m : in.machines)
            for (View &v : views_of(m, f)) in.views[f].push_back(std::move(v));

    PlotList plots;
    std::string page = compose_page(in, plots, {true, ""});
    const PlotOutcome plotted = make_plots(plots, o.out_dir, o.source_dir);
    if (!plotted.made) {
        PlotList not_drawn(false);
        page = compose_page(in, not_drawn, plotted);  // the same page, without the plots' images
    }
    const fs::path report = out / "report.md";
    std::ofstream file(report);
    file << page;
    file.close();
    if (!file) throw Error(report.string() + ": cannot write");
    return {report.string(), plotted.made, plotted.why};
}

}  // namespace filterlab
