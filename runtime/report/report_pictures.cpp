#include "report_pictures.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <vector>

#include "error.h"
#include "report_text.h"
#include "run_format.h"

namespace filterlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace report_model;
using namespace report_text;

using Histograms = std::vector<std::pair<std::string, std::vector<double>>>;

// The histograms CSV of a gallery: column name -> 256 counts.
Histograms read_histograms(const fs::path &path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    Histograms columns;
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

std::string slurp(const fs::path &path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Copies gallery/<name> beside the page as <slug>_<name>, unless the same
// picture is there already; the name to link.
std::string copy_picture(const fs::path &gallery, const std::string &name, const std::string &slug,
                         const fs::path &out, CopiedPictures &copied) {
    std::string bytes = slurp(gallery / name);
    if (auto it = copied.find(bytes); it != copied.end()) return it->second;
    const std::string file = slug + "_" + name;
    fs::copy_file(gallery / name, out / file, fs::copy_options::overwrite_existing);
    copied.emplace(std::move(bytes), file);
    return file;
}

// The input and the output with their PSNR; or why they are not shown.
std::string pictures_table(const RunDir &run, const json &entry, const std::string &slug, const fs::path &out,
                           CopiedPictures &copied) {
    const fs::path gallery = fs::path(run.path) / kRunGalleryDir;
    const std::string image = run.gallery.value("image", "the bundled image");
    const std::string noise = entry["noise"];
    std::string s = fmt::format("#### Pictures from {}: `{}`, {} ({})\n\n", slug, image,
                                noise == "none" ? "no noise added" : "with " + noise + " noise",
                                entry["noise_why"].get<std::string>());
    const std::string in_name = entry["input"], out_name = entry["output"];
    const std::string psnr_in = "PSNR against the clean image: " + psnr_text(entry["psnr_noisy_db"]);
    const std::string psnr_out = "PSNR against the clean image: " + psnr_text(entry["psnr_output_db"]);
    if (!fs::is_regular_file(gallery / in_name) || !fs::is_regular_file(gallery / out_name)) {
        return s + fmt::format("The run `{}` was kept without its pictures (`{}/{}`): the noisy input's {}, the "
                               "output's {}.\n\n",
                               run.path, kRunGalleryDir, in_name, psnr_in, psnr_out);
    }
    const std::string input = copy_picture(gallery, in_name, slug, out, copied);
    const std::string output = copy_picture(gallery, out_name, slug, out, copied);
    const std::string params = entry["params"];
    return s + markdown_table({noise == "none" ? "input" : "noisy input",
                               fmt::format("output of `{}`{}", entry["output_variant"].get<std::string>(),
                                           params.empty() ? "" : " (" + params + ")")},
                              {{fmt::format("![input]({})", input), fmt::format("![output]({})", output)},
                               {psnr_in, psnr_out}});
}

// Per variant: identical to the reference, its histogram, its PSNR.
std::string identity_table(const json &entry, const Histograms &histograms, const std::string &slug) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::pair<std::string, std::string>> not_run;
    int identical = 0, ran = 0;
    for (const json &v : entry["variants"]) {
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
    std::string s = fmt::format("Byte-identical to the reference's output: {} of the {} variants that ran on {}.\n\n",
                                identical, ran, slug);
    s += markdown_table({"variant", "kind", "identical to the reference", "histogram", "PSNR after"}, rows, 4);
    if (!not_run.empty()) s += "Not run on " + slug + " — " + by_reason(not_run) + ".\n\n";
    return s;
}

}  // namespace

std::string pictures_section(const Machine &m, const std::string &filter, const std::string &out_dir,
                             PlotList &plots, CopiedPictures &copied) {
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
    const auto histograms =
        read_histograms(fs::path(run->path) / kRunGalleryDir / (*entry)["histograms"].get<std::string>());
    std::string s = pictures_table(*run, *entry, m.slug, out_dir, copied) + identity_table(*entry, histograms, m.slug);
    json series = json::array();
    for (auto &[name, counts] : histograms) series.push_back({{"label", name}, {"y", counts}});
    return s + plots.add({{"kind", "histograms"},
                          {"file", m.slug + "_" + filter + "_histograms.png"},
                          {"title", fmt::format("{} on {}: output histogram of every variant", filter, m.slug)},
                          {"series", series}},
                         "output histograms, one per variant: identical outputs give identical histograms");
}

}  // namespace filterlab
