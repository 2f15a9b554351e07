#include "report.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "error.h"
#include "report_model.h"
#include "report_made.h"
#include "report_opencl.h"
#include "report_text.h"
#include "report_plots.h"
#include "report_summary.h"
#include "report_sweeps.h"
#include "report_verdict.h"
#include "run_dir.h"
#include "run_format.h"
#include "source_lines.h"

namespace filterlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace report_model;
using namespace report_text;

std::string format_amount(double v) { return v >= 100 ? fmt::format("{:.0f}", v) : fmt::format("{:.3g}", v); }

// "why: `a`, `b`; other why: `c`" for (name, why) pairs.
std::string by_reason(const std::vector<std::pair<std::string, std::string>> &named) {
    std::vector<std::pair<std::string, std::string>> groups;  // why, names
    for (auto &[name, why] : named) {
        auto it = std::find_if(groups.begin(), groups.end(), [&](auto &g) { return g.first == why; });
        if (it == groups.end()) it = groups.insert(groups.end(), {why, ""});
        it->second += (it->second.empty() ? "`" : ", `") + name + "`";
    }
    std::string s;
    for (auto &[why, names] : groups) s += (s.empty() ? "" : "; ") + why + ": " + names;
    return s;
}

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
std::string scaling_section(const View &v, json &plots) {
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
    const std::string file = v.slug() + "_threads.png";
    plots.push_back({{"kind", "scaling"},
                     {"file", file},
                     {"title", fmt::format("{} at {}: CPU thread scaling", v.title(), size_label(size))},
                     {"xlabel", "threads"},
                     {"ylabel", fmt::format("speed-up over {} thread{}", *counts.begin(), *counts.begin() == 1 ? "" : "s")},
                     {"series", series}});
    return fmt::format("CPU thread scaling at {} (× the speed-up over the fewest threads measured):\n\n",
                       size_label(size)) +
           markdown_table(header, rows) + fmt::format("![CPU thread scaling]({})\n\n", file);
}

std::string plots_of(const View &v, json &plots) {
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
    const std::string time_file = v.slug() + "_time.png", bars_file = v.slug() + "_bars.png";
    plots.push_back({{"kind", "loglog"},
                     {"file", time_file},
                     {"title", v.title() + ": time per image"},
                     {"xlabel", "megapixels"},
                     {"ylabel", "time per image (ms)"},
                     {"series", series}});
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
    plots.push_back({{"kind", "bars"},
                     {"file", bars_file},
                     {"title", fmt::format("{} at {}", v.title(), size_label(largest))},
                     {"ylabel", "GB/s"},
                     {"bars", bars},
                     {"hline", roof},
                     {"hline_label", fmt::format("copy roofline {:.0f} GB/s", roof)}});
    return fmt::format("![time per image against image size, log-log]({})\n\n", time_file) +
           fmt::format("![GB/s at {}{}]({})\n\n", size_label(largest),
                       roof > 0 ? ", with the copy roofline" : " (no GPU: no roofline measured)", bars_file);
}

// ---------------------------------------------------------------- pictures

// The histograms CSV of a gallery: column name -> 256 counts.
std::vector<std::pair<std::string, std::vector<double>>> read_histograms(const fs::path &path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    std::vector<std::pair<std::string, std::vector<double>>> columns;
    std::stringstream header(line);
    std::string name;
    std::getline(header, name, ',');  // "value"
    while (std::getline(header, name, ',')) columns.push_back({name, {}});
    while (std::getline(in, line)) {
        std::stringstream row(line);
        std::string field;
        std::getline(row, field, ',');
        for (auto &c : columns) {
            char *end = nullptr;
            if (!std::getline(row, field, ',') || (c.second.push_back(std::strtod(field.c_str(), &end)), *end != '\0'))
                throw Error(path.string() + ": a row is short or not numbers");
        }
    }
    for (auto &c : columns)
        if (c.second.size() != 256) throw Error(path.string() + ": expected 256 rows of counts");
    return columns;
}

std::string psnr_text(const json &v) { return v.is_number() ? fmt::format("{:.2f} dB", v.get<double>()) : "—"; }

std::string pictures_section(const Machine &m, const std::string &filter, const fs::path &out, json &plots) {
    const RunDir *run = nullptr;
    const json *entry = nullptr;
    for (const RunDir *r : m.runs)
        for (const json &f : r->gallery["filters"])
            if (f.value("filter", "") == filter) run = r, entry = &f;
    if (!entry) {
        for (const RunDir *r : m.runs)
            if (r->gallery.contains("skipped"))
                return fmt::format("No pictures from {}: {}.\n\n", m.slug, r->gallery["skipped"].get<std::string>());
        return "";
    }
    if (entry->contains("skipped"))
        return fmt::format("No pictures from {}: {}.\n\n", m.slug, (*entry)["skipped"].get<std::string>());
    const fs::path gallery = fs::path(run->path) / kRunGalleryDir;
    const std::string input = m.slug + "_" + (*entry)["input"].get<std::string>();
    const std::string output = m.slug + "_" + (*entry)["output"].get<std::string>();
    fs::copy_file(gallery / (*entry)["input"].get<std::string>(), out / input, fs::copy_options::overwrite_existing);
    fs::copy_file(gallery / (*entry)["output"].get<std::string>(), out / output, fs::copy_options::overwrite_existing);
    const std::string image = run->gallery.value("image", "the bundled image");
    const std::string noise = (*entry)["noise"];
    std::string s = fmt::format("#### Pictures from {}: `{}`, {} ({})\n\n", m.slug, image,
                                noise == "none" ? "no noise added" : "with " + noise + " noise",
                                (*entry)["noise_why"].get<std::string>());
    const std::string params = (*entry)["params"];
    s += markdown_table({noise == "none" ? "input" : "noisy input",
                         fmt::format("output of `{}`{}", (*entry)["output_variant"].get<std::string>(),
                                     params.empty() ? "" : " (" + params + ")")},
                        {{fmt::format("![input]({})", input), fmt::format("![output]({})", output)},
                         {"PSNR against the clean image: " + psnr_text((*entry)["psnr_noisy_db"]),
                          "PSNR against the clean image: " + psnr_text((*entry)["psnr_output_db"])}});

    const auto histograms = read_histograms(gallery / (*entry)["histograms"].get<std::string>());
    std::vector<std::vector<std::string>> rows;
    std::vector<std::pair<std::string, std::string>> not_run;
    int identical = 0, ran = 0;
    for (const json &v : (*entry)["variants"]) {
        const std::string name = v["variant"];
        if (v["status"] != "ok") {
            not_run.push_back({name, v["status"].get<std::string>() + ", " + v.value("note", std::string())});
            continue;
        }
        ran++;
        auto h = std::find_if(histograms.begin(), histograms.end(), [&](auto &c) { return c.first == name; });
        const bool same_histogram = h != histograms.end() && h->second == histograms.front().second;
        identical += v["identical"].get<bool>();
        rows.push_back({fmt::format("`{}`", name), label(category_of(v["kind"], v["backend"])),
                        v["identical"].get<bool>() ? "yes" : "no: " + v.value("note", std::string("differs")),
                        same_histogram ? "identical" : "differs", psnr_text(v["psnr_db"])});
    }
    s += fmt::format("Byte-identical to the reference's output: {} of the {} variants that ran on {}.\n\n", identical,
                     ran, m.slug);
    s += markdown_table({"variant", "kind", "identical to the reference", "histogram", "PSNR after"}, rows, 4);
    if (!not_run.empty()) s += "Not run on " + m.slug + " — " + by_reason(not_run) + ".\n\n";
    json series = json::array();
    for (auto &[name, counts] : histograms) series.push_back({{"label", name}, {"y", counts}});
    const std::string file = m.slug + "_" + filter + "_histograms.png";
    plots.push_back({{"kind", "histograms"},
                     {"file", file},
                     {"title", fmt::format("{} on {}: output histogram of every variant", filter, m.slug)},
                     {"series", series}});
    s += fmt::format("![output histograms, one per variant: identical outputs give identical histograms]({})\n\n", file);
    return s;
}

// ---------------------------------------------------------------- runs

std::string runs_section(const std::vector<Machine> &machines) {
    std::string s = "## Machines and runs\n\n";
    for (const Machine &m : machines) {
        const json &c = m.runs.back()->context;
        const json cpu = c.value("cpu", json::object()), gpu = c.value("gpu", json::object());
        s += fmt::format("### {}: {}\n\n", m.slug, m.name);
        std::vector<std::vector<std::string>> facts;
        facts.push_back({"host", c.value("host_name", "?")});
        facts.push_back({"CPU", fmt::format("{} ({} hardware threads, {} Halide threads; {})", cpu.value("model", "?"),
                                            cpu.value("hardware_threads", 0), cpu.value("halide_threads", 0),
                                            cpu.value("features", ""))});
        if (gpu.contains("name")) {
            facts.push_back({"GPU", fmt::format("{} (compute {}, {} SMs, {:.1f} GiB, L2 {:.0f} MiB, SM {} MHz, memory {} "
                                                "MHz; driver {}, runtime {})",
                                                gpu.value("name", "?"), gpu.value("compute_capability", "?"),
                                                gpu.value("sm_count", 0), gpu.value("memory_bytes", 0.0) / 1073741824.0,
                                                gpu.value("l2_bytes", 0.0) / 1048576.0, gpu.value("sm_clock_mhz", 0),
                                                gpu.value("memory_clock_mhz", 0), gpu.value("driver_version", 0),
                                                gpu.value("runtime_version", 0))});
        } else {
            facts.push_back({"GPU", "none (" + gpu.value("absent", std::string("?")) + ")"});
        }
        const double roof = roofline_of(m);
        facts.push_back({"copy roofline", roof > 0 ? fmt::format("{:.0f} GB/s (1 GiB device-to-device cudaMemcpy, read + write)", roof)
                                                   : "not measured (no GPU)"});
        if (c.contains("plugins"))
            for (auto &[name, detail] : c["plugins"].items()) facts.push_back({"plugin " + name, detail.get<std::string>()});
        facts.push_back({"Halide targets", c.value("build", json::object()).value("halide_targets", "?")});
        s += markdown_table({"", ""}, facts, 2);
        std::vector<std::vector<std::string>> runs;
        for (const RunDir *r : m.runs) {
            const json &rc = r->context;
            const json start = rc.value("gpu_clocks_start", json::object()), end = rc.value("gpu_clocks_end", json::object());
            runs.push_back({fmt::format("`{}`", r->path), rc.value("build", json::object()).value("commit", "?"),
                            gpu.contains("name") ? fmt::format("SM {}→{} MHz, memory {}→{} MHz", start.value("sm_mhz", 0),
                                                               end.value("sm_mhz", 0), start.value("memory_mhz", 0),
                                                               end.value("memory_mhz", 0))
                                                 : "—",
                            fmt::format("`{}`", rc.value("command", std::string("?")))});
        }
        s += markdown_table({"run", "commit", "GPU clocks, start→end", "command"}, runs, 4);
    }
    return s;
}

std::string now_utc() {
    const std::time_t t = std::time(nullptr);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
    return text;
}

}  // namespace

ReportResult write_report(const ReportOptions &o) {
    if (o.run_dirs.empty()) throw Error("report: give at least one bench run directory");
    std::vector<RunDir> runs;
    for (const std::string &path : o.run_dirs) {
        const auto canonical = fs::weakly_canonical(path);
        for (const RunDir &r : runs)
            if (fs::weakly_canonical(r.path) == canonical) throw Error(path + ": run directory given twice");
        runs.push_back(load_run_dir(path));  // all checked before anything is written
    }
    const fs::path out = o.out_dir;
    std::error_code ec;
    fs::create_directories(out, ec);
    if (!fs::is_directory(out)) throw Error(o.out_dir + ": cannot create the report folder");

    const std::vector<Machine> machines = group_machines(runs);
    std::vector<std::string> filters;
    for (const RunDir &r : runs)
        for (const BenchRow &row : r.rows)
            if (std::find(filters.begin(), filters.end(), row.filter) == filters.end()) filters.push_back(row.filter);
    std::map<std::string, std::vector<View>> views;
    for (const std::string &f : filters)
        for (const Machine &m : machines)
            for (View &v : views_of(m, f)) views[f].push_back(std::move(v));

    json plots = json::array();
    std::string body;
    for (const std::string &f : filters) {
        body += "## " + f + "\n\n";
        for (const Machine &m : machines) {
            std::vector<const View *> mine;
            for (const View &v : views[f])
                if (v.machine == &m) mine.push_back(&v);
            if (mine.empty()) continue;
            body += fmt::format("### {} on {}: {}\n\n", f, m.slug, m.name);
            for (const View *v : mine) {
                body += fmt::format("#### {}\n\n", v->title());
                body += tables_section(*v, o) + best_section(*v) + plots_of(*v, plots) + scaling_section(*v, plots);
            }
            body += sweeps_section(m.runs, f, m.slug, plots);
            body += pictures_section(m, f, out, plots);
        }
        body += verdict_section(f, views[f], o) + made_section(f, views[f], o) + opencl_section(f, views[f]);
    }

    const std::string answer = answer_section(filters, views, plots);
    const PlotOutcome outcome = make_plots(plots, out, o.source_dir);
    std::string appendix = "## Appendix: how this report was made\n\n";
    appendix += fmt::format("Made on {} by `{}` from {} run{} on {} machine{} (machines are told apart by host name, "
                            "CPU and GPU; runs of one machine are merged, a case measured twice keeping the later "
                            "run's result).\n\n",
                            now_utc(), o.command_line, runs.size(), runs.size() == 1 ? "" : "s", machines.size(),
                            machines.size() == 1 ? "" : "s");
    appendix += outcome.made ? "Plots: made by `scripts/plots.py` (matplotlib).\n"
                             : "Plots: **skipped** — " + outcome.why + ". The tables, counts and pictures are complete.\n";
    std::string head = "# FilterLab report\n\n" + answer;
    if (!outcome.made) head += "Plots were not made: the appendix says why.\n\n";
    head += fmt::format(
        "## How to read the details\n\nTimes are the median over the samples of each case; × is the speed-up over the "
        "plain serial CPU reference at the same size, where the reference was measured; GB/s counts each input sample "
        "read once and each output sample written once; the share of the roofline compares GPU variants (CUDA, and "
        "OpenCL on that GPU) with the 1 GiB device-to-device copy measured in the same run. Lines of code are counted by the tool in `{}` "
        "(non-blank, non-comment): a schedule's own lines are the body of its `FILTERLAB_SCHEDULE`; a handwritten "
        "kernel's are every definition of its `.cu` or `.cpp` file (and of the headers and OpenCL `.cl` kernels "
        "beside it) that its registration "
        "reaches — kernels, device helpers, host wrapper, registration. *Shared* lines are the helpers of the "
        "headers every filter uses (`schedules/schedule_helpers.h`; `handwritten/*.h`, `*.cuh`) that a variant "
        "reaches.\n\n",
        o.source_dir);
    std::string page = head + glance_section(filters, views) + body + runs_section(machines) + appendix;

    // Plot images that were not made are left out of the page.
    std::string kept, line;
    std::stringstream lines(page);
    while (std::getline(lines, line)) {
        bool missing = false;
        for (const json &p : plots)
            missing = missing || (line.rfind("![", 0) == 0 && line.find("](" + p["file"].get<std::string>() + ")") !=
                                                                   std::string::npos &&
                                  !fs::exists(out / p["file"].get<std::string>()));
        if (!missing) kept += line + "\n";
    }
    const fs::path report = out / "report.md";
    std::ofstream file(report);
    file << kept;
    file.close();
    if (!file) throw Error(report.string() + ": cannot write");
    return {report.string(), outcome.made, outcome.why};
}

}  // namespace filterlab
