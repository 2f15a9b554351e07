#include "gallery.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "error.h"
#include "harness.h"
#include "image_io.h"
#include "noise.h"
#include "run_format.h"

namespace filterlab {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kGallerySeed = 1;

// The filter's gallery noise, its amount taken from a parameter where the
// contract says so.
GalleryNoise noise_for(const FilterInfo &info, const ParamValues &params) {
    GalleryNoise noise = info.gallery_noise;
    if (!noise.amount_from.empty()) noise.amount = params.at(noise.amount_from);
    return noise;
}

using Histogram = std::array<uint64_t, 256>;

Histogram histogram(const Image &image) {
    Histogram h{};
    for (uint8_t v : image.samples()) h[v]++;
    return h;
}

bool same_shape(const Image &a, const Image &b) {
    return a.width() == b.width() && a.height() == b.height() && a.channels() == b.channels();
}

// PSNR as JSON: a number, or null when infinite (identical images) or the
// shapes differ (maxpool).
nlohmann::json psnr_json(const Image &clean, const Image &image) {
    if (!same_shape(clean, image)) return nullptr;
    const double db = psnr(clean, image);
    return std::isfinite(db) ? nlohmann::json(db) : nlohmann::json(nullptr);
}

// The clean image with the filter's gallery noise added (none: a copy).
Image noisy_image(const Image &clean, const GalleryNoise &noise) {
    Image noisy = clean;
    if (noise.kind == "salt_pepper") add_salt_and_pepper(noisy, noise.amount, kGallerySeed);
    if (noise.kind == "gaussian") add_gaussian_noise(noisy, noise.amount, kGallerySeed);
    return noisy;
}

// What the variants' outputs leave for the pictures: each one's histogram,
// and the first variant whose output is the reference's, shown as the output.
struct GalleryOutputs {
    std::vector<std::pair<std::string, Histogram>> histograms;
    const Variant *shown;
    Image shown_output;
};

// One variant's entry: run on the noisy image and compared with the
// reference, or why it was skipped or failed.
nlohmann::json variant_entry(const Variant *v, const FilterInfo &info, const ParamValues &params, const Image &clean,
                             const Image &noisy, const Image &reference, GalleryOutputs &outputs) {
    nlohmann::json r = {{"variant", v->name}, {"backend", to_string(v->backend)}, {"kind", to_string(v->kind)}};
    try {
        if (std::string why = v->why_unavailable(); !why.empty()) throw std::invalid_argument(why);
        if (std::string why = v->unsupported_reason(params, noisy.width(), noisy.height(), noisy.channels()); !why.empty())
            throw std::invalid_argument(why);
        // The reference variant computes the oracle itself: not run twice.
        const Image output = v->kind == Kind::reference ? reference : run_variant(*v, noisy, params);
        const Comparison cmp = compare_to_reference(info, reference, output);
        r["status"] = "ok";
        r["identical"] = output == reference;
        r["within_contract"] = cmp.equal;
        if (!cmp.equal) r["note"] = cmp.describe();
        r["psnr_db"] = psnr_json(clean, output);
        if (v->kind != Kind::reference) outputs.histograms.push_back({v->name, histogram(output)});
        if (!outputs.shown && v->kind != Kind::reference && output == reference)
            outputs.shown = v, outputs.shown_output = output;
    } catch (const std::invalid_argument &e) {
        r["status"] = "skipped";
        r["note"] = e.what();
    } catch (const MachineError &) {
        throw;  // the machine is short, not the variant: the bench ends
    } catch (const Error &e) {
        r["status"] = "error";
        r["note"] = e.what();
    }
    return r;
}

// Writes the histograms as CSV: a row per sample value, a column per image.
void write_histograms(const fs::path &path, const std::vector<std::pair<std::string, Histogram>> &histograms) {
    std::ofstream csv(path);
    csv << "value";
    for (auto &[name, h] : histograms) csv << "," << name;
    csv << "\n";
    for (int value = 0; value < 256; value++) {
        csv << value;
        for (auto &[name, h] : histograms) csv << "," << h[value];
        csv << "\n";
    }
}

nlohmann::json filter_gallery(const fs::path &dir, const FilterInfo &info, const ParamValues &params,
                              const std::vector<const Variant *> &variants, const Image &clean) {
    const GalleryNoise noise = noise_for(info, params);
    const Image noisy = noisy_image(clean, noise);
    nlohmann::json entry = {{"filter", info.name},
                            {"params", format_params(params)},
                            {"noise", noise.kind.empty() ? "none" : fmt::format("{}:{}", noise.kind, noise.amount)},
                            {"noise_why", noise.why},
                            {"psnr_noisy_db", noise.kind.empty() ? nlohmann::json(nullptr) : psnr_json(clean, noisy)}};
    const Image reference = info.reference(noisy, params);

    GalleryOutputs outputs{{{"reference", histogram(reference)}}, nullptr, reference};
    nlohmann::json results = nlohmann::json::array();
    for (const Variant *v : variants)
        results.push_back(variant_entry(v, info, params, clean, noisy, reference, outputs));

    const std::string stem = info.name;
    write_image((dir / (stem + "_noisy.png")).string(), noisy);
    write_image((dir / (stem + "_output.png")).string(), outputs.shown_output);
    write_histograms(dir / (stem + "_histograms.csv"), outputs.histograms);
    entry["input"] = stem + "_noisy.png";
    entry["output"] = stem + "_output.png";
    entry["output_variant"] = outputs.shown ? outputs.shown->name : "reference";
    entry["output_size"] = {reference.width(), reference.height(), reference.channels()};
    entry["psnr_output_db"] = psnr_json(clean, reference);
    entry["histograms"] = stem + "_histograms.csv";
    entry["variants"] = results;
    return entry;
}

}  // namespace

namespace {

nlohmann::json gallery_doc() {
    return {{"format", kRunFormat}, {"image", kGalleryImage}, {"seed", kGallerySeed}, {"filters", nlohmann::json::array()}};
}

}  // namespace

std::string write_no_gallery(const std::string &run_dir, const std::string &why) {
    const fs::path dir = fs::path(run_dir) / kRunGalleryDir;
    fs::create_directories(dir);
    nlohmann::json doc = gallery_doc();
    doc["skipped"] = why;
    std::ofstream(dir / "gallery.json") << doc.dump(2) << "\n";
    return "gallery: skipped, " + why;
}

std::string write_gallery(const std::string &run_dir, const std::vector<const Variant *> &variants,
                          const std::function<ParamValues(const FilterInfo &)> &params_of,
                          const std::string &images_dir) {
    const fs::path dir = fs::path(run_dir) / kRunGalleryDir;
    const fs::path image = fs::path(images_dir) / kGalleryImage;
    if (images_dir.empty() || !fs::is_regular_file(image)) {
        return write_no_gallery(run_dir, images_dir.empty()
                                             ? "no folder of real images found (set FILTERLAB_IMAGES or --images)"
                                             : image.string() + " not found");
    }
    fs::create_directories(dir);
    nlohmann::json doc = gallery_doc();
    const Image clean = read_image(image.string());
    doc["size"] = {clean.width(), clean.height(), clean.channels()};
    std::vector<std::string> filters;
    for (const Variant *v : variants)
        if (std::find(filters.begin(), filters.end(), v->filter) == filters.end()) filters.push_back(v->filter);
    for (const std::string &name : filters) {
        std::vector<const Variant *> mine;
        for (const Variant *v : variants)
            if (v->filter == name) mine.push_back(v);
        const FilterInfo &info = filter_info(name);
        try {
            doc["filters"].push_back(filter_gallery(dir, info, params_of(info), mine, clean));
        } catch (const MachineError &) {
            throw;
        } catch (const Error &e) {  // the image too small for the filter, a file not written: said, not fatal
            doc["filters"].push_back({{"filter", name}, {"skipped", e.what()}});
        }
    }
    const std::string summary = fmt::format("gallery: {} filter(s) on {} in {}", filters.size(), image.string(), dir.string());
    std::ofstream(dir / "gallery.json") << doc.dump(2) << "\n";
    return summary;
}

}  // namespace filterlab
