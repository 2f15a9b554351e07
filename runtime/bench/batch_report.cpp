#include "batch_report.h"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>

#include "machine.h"

namespace filterlab {
namespace {

std::string cell(const Stats &s) { return s.samples ? fmt::format("{:.6f}", s.median) : ""; }

nlohmann::json stats_json(const Stats &s) {
    if (!s.samples) return nullptr;
    return {{"median_ms", s.median}, {"p25_ms", s.p25}, {"p75_ms", s.p75},
            {"min_ms", s.min},       {"max_ms", s.max}, {"samples", s.samples}};
}

// Megapixels (of input) per second for a batch taking `s` milliseconds.
double mp_per_s(const BatchShape &b, const Stats &s) {
    return s.samples ? double(b.images) * b.width * b.height / (s.median * 1e3) : 0;
}

// What batch.csv, the table and batch.json all say of one result, worked out once.
struct ResultFigures {
    const Stats &kernel, &e2e;  // the kernels' phase and the pinned end-to-end one
    int threads;
    std::string per_image, per_image_pinned, mp, mp_pinned;
};

// One result's figures: its threads, per-image times and throughputs (empty where not measured).
ResultFigures figures_of(const BatchShape &b, const BatchResult &r) {
    const Stats &k = r.ms[Phase::kernel], &e2e = r.ms[Phase::total_pinned];
    return {k,
            e2e,
            r.variant->backend == Backend::cpu ? halide_thread_count() : 0,
            k.samples ? fmt::format("{:.6f}", k.median / b.images) : "",
            e2e.samples ? fmt::format("{:.6f}", e2e.median / b.images) : "",
            k.samples ? fmt::format("{:.6g}", mp_per_s(b, k)) : "",
            e2e.samples ? fmt::format("{:.6g}", mp_per_s(b, e2e)) : ""};
}

// batch.csv's header line: every phase's median, then every phase's quartiles.
void write_csv_header(std::ofstream &csv) {
    csv << "filter,variant,backend,kind,images,width,height,channels,params,status";
    for (const char *phase : kPhaseNames) csv << "," << phase << "_ms";
    for (const char *phase : kPhaseNames) csv << "," << phase << "_p25_ms," << phase << "_p75_ms";
    csv << ",samples,per_image_ms,per_image_pinned_ms,mp_per_s,mp_per_s_pinned,threads,note\n";
}

// One result's line of batch.csv (commas in its note made semicolons).
void write_csv_row(std::ofstream &csv, const BatchShape &b, const BatchResult &r, const ResultFigures &f) {
    const Variant &v = *r.variant;
    std::string note = r.note;
    std::replace(note.begin(), note.end(), ',', ';');
    csv << fmt::format("{},{},{},{},{},{},{},{},{},{}", v.filter, v.name, to_string(v.backend), to_string(v.kind),
                       b.images, b.width, b.height, r.channels, format_params(r.params), to_string(r.status));
    for (const Stats &s : r.ms) csv << "," << cell(s);
    for (const Stats &s : r.ms) csv << "," << (s.samples ? fmt::format("{:.6f},{:.6f}", s.p25, s.p75) : ",");
    csv << fmt::format(",{},{},{},{},{},{},{}\n", f.kernel.samples, f.per_image, f.per_image_pinned, f.mp, f.mp_pinned,
                       f.threads, note);
}

// The header line of the table printed and written to batch.txt.
std::string table_header() {
    return fmt::format(
        "{:<16} {:<20} {:<4} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8} "
        "{:>8} {:>8}  {}\n",
        "filter", "variant", "back", "to_planar", "to_interl", "h2d_page", "h2d_pin", "kernel", "d2h_page", "d2h_pin",
        "e2e_page", "e2e_pin", "e2e_strm", "ms/image", "MP/s", "MP/s e2e", "status");
}

// One result's line of the table: medians in milliseconds, "-" where not measured.
std::string table_row(const BatchShape &b, const BatchResult &r, const ResultFigures &f) {
    const Variant &v = *r.variant;
    const Stats &k = f.kernel;
    auto shown = [](const Stats &s) { return s.samples ? fmt::format("{:.2f}", s.median) : "-"; };
    std::string table = fmt::format("{:<16} {:<20} {:<4}", v.filter, v.name, to_string(v.backend));
    for (const Stats &s : r.ms) table += fmt::format(" {:>9}", shown(s));
    table += fmt::format(" {:>8} {:>8} {:>8}  {}\n", k.samples ? fmt::format("{:.3f}", k.median / b.images) : "-",
                         f.mp.empty() ? "-" : f.mp, f.mp_pinned.empty() ? "-" : f.mp_pinned,
                         r.status == Status::ok ? "ok" : std::string(to_string(r.status)) + ": " + r.note);
    return table;
}

// One result's entry of batch.json: every statistic of every phase.
nlohmann::json json_row(const BatchShape &b, const BatchResult &r, const ResultFigures &f) {
    const Variant &v = *r.variant;
    const Stats &k = f.kernel, &e2e = f.e2e;
    nlohmann::json phases;
    for (int p = 0; p < Phase::count; p++) phases[kPhaseNames[p]] = stats_json(r.ms[p]);
    return {{"filter", v.filter},
            {"variant", v.name},
            {"backend", to_string(v.backend)},
            {"kind", to_string(v.kind)},
            {"images", b.images},
            {"width", b.width},
            {"height", b.height},
            {"channels", r.channels},
            {"params", r.params},
            {"status", to_string(r.status)},
            {"note", r.note},
            {"phases", phases},
            {"threads", f.threads},
            {"per_image_ms", k.samples ? nlohmann::json(k.median / b.images) : nullptr},
            {"mp_per_s", k.samples ? nlohmann::json(mp_per_s(b, k)) : nullptr},
            {"mp_per_s_pinned", e2e.samples ? nlohmann::json(mp_per_s(b, e2e)) : nullptr}};
}

// What the table's columns mean, below it in batch.txt and on the terminal.
std::string batch_legend(const BatchShape &b) {
    return fmt::format(
        "milliseconds per batch of {} images of {}x{} (medians; quartiles in batch.csv). Conversions: host, one "
        "thread. Transfers and kernels: CUDA events. e2e: upload + kernels + download, conversions excluded, one "
        "after the other (page: pageable, pin: pinned); e2e_strm: pinned, image i's upload, kernels and download on "
        "stream i mod {}, so copies overlap kernels. ms/image and MP/s (input megapixels): kernels only; MP/s e2e: "
        "pinned end to end, one after the other.\n",
        b.images, b.width, b.height, kOverlapStreams);
}

}  // namespace

void write_batch_results(const std::string &dir, const BenchOptions &o, const BatchShape &b,
                         const std::vector<BatchResult> &results, nlohmann::json context) {
    std::ofstream csv(dir + "/batch.csv");
    write_csv_header(csv);
    std::string table = table_header();
    nlohmann::json rows = nlohmann::json::array();
    for (const BatchResult &r : results) {
        const ResultFigures f = figures_of(b, r);
        write_csv_row(csv, b, r, f);
        table += table_row(b, r, f);
        rows.push_back(json_row(b, r, f));
    }
    context["batch"] = {{"images", b.images}, {"width", b.width}, {"height", b.height}, {"channels", o.channels}};
    std::ofstream(dir + "/batch.json") << nlohmann::json{{"context", context}, {"results", rows}}.dump(2) << "\n";
    const std::string legend = batch_legend(b);
    std::ofstream(dir + "/batch.txt") << o.command_line << "\n\n" << table << "\n" << legend;
    fmt::print("\n{}\n{}results: {}/batch.csv, batch.json, batch.txt\n", table, legend, dir);
}

}  // namespace filterlab
