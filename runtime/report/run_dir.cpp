#include "run_dir.h"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "error.h"
#include "run_format.h"

namespace filterlab {

namespace {

namespace fs = std::filesystem;

nlohmann::json read_json(const fs::path &path, const std::string &dir) {
    std::ifstream in(path);
    try {
        return nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception &) {
        throw Error(fmt::format("{}: partial bench run: {} is not complete JSON (was the run cut short?)", dir,
                                fs::relative(path, dir).string()));
    }
}

}  // namespace

namespace {

// Every field the report reads from sweep.json, of its type.
bool is_sweep(const nlohmann::json &s) {
    using json = nlohmann::json;
    auto has = [](const json &o, const char *key, json::value_t type) {
        return o.is_object() && o.contains(key) &&
               (o.at(key).type() == type || (type == json::value_t::number_integer && o.at(key).is_number_integer()));
    };
    if (!has(s, "format_version", json::value_t::number_integer) || s.at("format_version") != 1) return false;
    if (!has(s, "filter", json::value_t::string) || !has(s, "schedule", json::value_t::string) ||
        !has(s, "source", json::value_t::object) || !has(s, "axes", json::value_t::array) ||
        !has(s, "points", json::value_t::array))
        return false;
    if (!has(s.at("source"), "file", json::value_t::string) ||
        !has(s.at("source"), "first_line", json::value_t::number_integer))
        return false;
    for (const json &a : s.at("axes"))
        if (!has(a, "name", json::value_t::string) || !has(a, "values", json::value_t::array) ||
            !has(a, "default", json::value_t::number_integer))
            return false;
    for (const json &p : s.at("points"))
        if (!has(p, "variant", json::value_t::string) || !has(p, "values", json::value_t::object) ||
            !has(p, "check", json::value_t::string))
            return false;
    return true;
}

}  // namespace

RunDir load_run_dir(const std::string &path) {
    const fs::path dir = path;
    if (!fs::exists(dir)) throw Error(path + ": no such run directory");
    if (!fs::is_directory(dir)) throw Error(path + ": not a directory (give a bench run directory)");
    const bool csv = fs::is_regular_file(dir / kRunResultsCsv), json = fs::is_regular_file(dir / kRunResultsJson);
    if (!csv && !json) {
        throw Error(path + ": not a bench run directory (no results.csv, no results.json; `filterlab bench` writes "
                           "them)");
    }
    if (!csv || !json) {
        throw Error(fmt::format("{}: partial bench run: {} missing (was the run cut short?)", path,
                                csv ? kRunResultsJson : kRunResultsCsv));
    }
    RunDir run;
    run.path = path;
    const nlohmann::json results = read_json(dir / kRunResultsJson, path);
    if (!results.is_object() || !results.contains("context") || !results["context"].is_object()) {
        throw Error(path + ": results.json has no context (not written by filterlab bench)");
    }
    run.context = results["context"];
    if (!run.context.contains("format")) {
        throw Error(fmt::format("{}: written by an older filterlab (results.json has no run format; this report "
                                "reads format {}): run `filterlab bench` again",
                                path, kRunFormat));
    }
    if (!run.context["format"].is_number_integer() || run.context["format"].get<int>() != kRunFormat) {
        throw Error(fmt::format("{}: run format {}, this filterlab reads format {}", path,
                                run.context["format"].dump(), kRunFormat));
    }

    std::ifstream in(dir / kRunResultsCsv);
    std::string line;
    if (!std::getline(in, line) || line != results_csv_header()) {
        throw Error(path + "/results.csv: unexpected columns (expected " + results_csv_header() + ")");
    }
    for (int number = 2; std::getline(in, line); number++) {
        if (line.empty()) continue;
        try {
            run.rows.push_back(parse_csv_line(line));
        } catch (const Error &e) {
            throw Error(fmt::format("{}/results.csv line {}: {}", path, number, e.what()));
        }
    }
    if (run.rows.empty()) throw Error(path + ": partial bench run: results.csv has no results");

    if (!fs::is_regular_file(dir / kRunGalleryJson)) {
        throw Error(fmt::format("{}: partial bench run: {} missing (was the run cut short?)", path, kRunGalleryJson));
    }
    run.gallery = read_json(dir / kRunGalleryJson, path);
    if (!run.gallery.is_object() || !run.gallery.contains("filters") || !run.gallery["filters"].is_array()) {
        throw Error(fmt::format("{}: {} lists no filters", path, kRunGalleryJson));
    }
    for (const auto &f : run.gallery["filters"]) {
        for (const char *key : {"input", "output", "histograms"}) {
            if (f.contains(key) && !fs::is_regular_file(dir / kRunGalleryDir / f[key].get<std::string>())) {
                throw Error(fmt::format("{}: partial bench run: {}/{} missing", path, kRunGalleryDir,
                                        f[key].get<std::string>()));
            }
        }
    }
    if (fs::is_regular_file(dir / kSweepFile)) {
        run.sweep = read_json(dir / kSweepFile, path);
        if (!is_sweep(run.sweep)) throw Error(fmt::format("{}: {} is not a sweep of format 1", path, kSweepFile));
    }
    return run;
}

}  // namespace filterlab
