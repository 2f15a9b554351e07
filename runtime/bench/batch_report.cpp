#include "batch_report.h"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>

#include "halide_variant.h"

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

}  // namespace

void write_batch_results(const std::string &dir, const BenchOptions &o, const BatchShape &b,
                         const std::vector<BatchResult> &results, nlohmann::json context) {
    std::ofstream csv(dir + "/batch.csv");
    csv << "filter,variant,backend,kind,images,width,height,channels,params,status";
    for (const char *phase : kPhaseNames) csv << "," << phase << "_ms";
    for (const char *phase : kPhaseNames) csv << "," << phase << "_p25_ms," << phase << "_p75_ms";
    csv << ",samples,per_image_ms,per_image_pinned_ms,mp_per_s,mp_per_s_pinned,threads,note\n";
    std::string table = fmt::format(
        "{:<16} {:<20} {:<4} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8} "
        "{:>8} {:>8}  {}\n",
        "filter", "variant", "back", "to_planar", "to_interl", "h2d_page", "h2d_pin", "kernel", "d2h_page", "d2h_pin",
        "e2e_page", "e2e_pin", "e2e_strm", "ms/image", "MP/s", "MP/s e2e", "status");
    nlohmann::json rows = nlohmann::json::array();
    for (const BatchResult &r : results) {
        const Variant &v = *r.variant;
        const Stats &k = r.ms[Phase::kernel], &e2e = r.ms[Phase::total_pinned];
        const int threads = v.backend == Backend::cpu ? halide_thread_count() : 0;
        const std::string per_image = k.samples ? fmt::format("{:.6f}", k.median / b.images) : "";
        const std::string per_image_pinned = e2e.samples ? fmt::format("{:.6f}", e2e.median / b.images) : "";
        const std::string mp = k.samples ? fmt::format("{:.6g}", mp_per_s(b, k)) : "";
        const std::string mp_pinned = e2e.samples ? fmt::format("{:.6g}", mp_per_s(b, e2e)) : "";
        std::string note = r.note;
        std::replace(note.begin(), note.end(), ',', ';');
        csv << fmt::format("{},{},{},{},{},{},{},{},{},{}", v.filter, v.name, to_string(v.backend), to_string(v.kind),
                           b.images, b.width, b.height, r.channels, format_params(r.params), to_string(r.status));
        for (const Stats &s : r.ms) csv << "," << cell(s);
        for (const Stats &s : r.ms) csv << "," << (s.samples ? fmt::format("{:.6f},{:.6f}", s.p25, s.p75) : ",");
        csv << fmt::format(",{},{},{},{},{},{},{}\n", k.samples, per_image, per_image_pinned, mp, mp_pinned, threads,
                           note);

        auto shown = [](const Stats &s) { return s.samples ? fmt::format("{:.2f}", s.median) : "-"; };
        table += fmt::format("{:<16} {:<20} {:<4}", v.filter, v.name, to_string(v.backend));
        for (const Stats &s : r.ms) table += fmt::format(" {:>9}", shown(s));
        table += fmt::format(" {:>8} {:>8} {:>8}  {}\n", k.samples ? fmt::format("{:.3f}", k.median / b.images) : "-",
                             mp.empty() ? "-" : mp, mp_pinned.empty() ? "-" : mp_pinned,
                             r.status == Status::ok ? "ok" : std::string(to_string(r.status)) + ": " + r.note);

        nlohmann::json phases;
        for (int p = 0; p < Phase::count; p++) phases[kPhaseNames[p]] = stats_json(r.ms[p]);
        rows.push_back({{"filter", v.filter},
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
                        {"threads", threads},
                        {"per_image_ms", k.samples ? nlohmann::json(k.median / b.images) : nullptr},
                        {"mp_per_s", k.samples ? nlohmann::json(mp_per_s(b, k)) : nullptr},
                        {"mp_per_s_pinned", e2e.samples ? nlohmann::json(mp_per_s(b, e2e)) : nullptr}});
    }
    context["batch"] = {{"images", b.images}, {"width", b.width}, {"height", b.height}, {"channels", o.channels}};
    std::ofstream(dir + "/batch.json") << nlohmann::json{{"context", context}, {"results", rows}}.dump(2) << "\n";
    const std::string legend = fmt::format(
        "milliseconds per batch of {} images of {}x{} (medians; quartiles in batch.csv). Conversions: host, one "
        "thread. Transfers and kernels: CUDA events. e2e: upload + kernels + download, conversions excluded, one "
        "after the other (page: pageable, pin: pinned); e2e_strm: pinned, image i's upload, kernels and download on "
        "stream i mod {}, so copies overlap kernels. ms/image and MP/s (input megapixels): kernels only; MP/s e2e: "
        "pinned end to end, one after the other.\n",
        b.images, b.width, b.height, kOverlapStreams);
    std::ofstream(dir + "/batch.txt") << o.command_line << "\n\n" << table << "\n" << legend;
    fmt::print("\n{}\n{}results: {}/batch.csv, batch.json, batch.txt\n", table, legend, dir);
}

}  // namespace filterlab
