#include "run_dir.h"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "error.h"
#include "run_format.h"

namespace filterlab {

const char *const kResultsCsvHeader =
    "filter,variant,backend,kind,width,height,channels,params,status,samples,buffers,median_us,min_us,max_us,p25_us,"
    "p75_us,spread_pct,gb_per_s,roofline_pct,threads,note";

namespace {

namespace fs = std::filesystem;

std::vector<std::string> split(const std::string &line, char sep) {
    std::vector<std::string> fields;
    std::stringstream s(line);
    std::string field;
    while (std::getline(s, field, sep)) fields.push_back(field);
    if (!line.empty() && line.back() == sep) fields.push_back("");
    return fields;
}

BenchRow parse_row(const std::string &line) {
    auto f = split(line, ',');
    constexpr std::size_t kColumns = 21;
    if (f.size() < kColumns) throw Error(fmt::format("{} fields, expected {}", f.size(), kColumns));
    for (std::size_t i = kColumns; i < f.size(); i++) f[kColumns - 1] += "," + f[i];  // the note, last, may hold commas
    auto number = [&](int i) {
        std::size_t used = 0;
        double v = 0;
        try {
            v = std::stod(f[i], &used);
        } catch (const std::exception &) {
            used = 0;
        }
        if (used == 0 || used != f[i].size()) throw Error(fmt::format("column {}: '{}' is not a number", i + 1, f[i]));
        return v;
    };
    BenchRow r;
    r.filter = f[0], r.variant = f[1], r.backend = f[2], r.kind = f[3];
    r.width = int(number(4)), r.height = int(number(5)), r.channels = int(number(6));
    r.params = f[7], r.status = f[8];
    r.samples = int(number(9)), r.buffers = int(number(10));
    r.median_us = number(11), r.min_us = number(12), r.max_us = number(13), r.p25_us = number(14);
    r.p75_us = number(15), r.spread_pct = number(16), r.gb_per_s = number(17), r.roofline_pct = number(18);
    r.threads = int(number(19));
    r.note = f[20];
    if (r.timed() && !(r.median_us > 0)) throw Error("a timed result with no time");
    return r;
}

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
    if (!std::getline(in, line) || line != kResultsCsvHeader) {
        throw Error(path + "/results.csv: unexpected columns (expected " + kResultsCsvHeader + ")");
    }
    for (int number = 2; std::getline(in, line); number++) {
        if (line.empty()) continue;
        try {
            run.rows.push_back(parse_row(line));
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
    return run;
}

}  // namespace filterlab
